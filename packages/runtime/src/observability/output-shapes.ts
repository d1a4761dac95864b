/**
 * Observed output shapes: for each tool an mcpScript called, the top-level
 * fields of its last JSON result and their JSON types (`{ sum: "number" }`).
 * `tools.describe` shows them as hints — not a schema, just what came back —
 * so a script can be written against a result without calling first. With
 * a file (script mode's default is `<agent dir>/mcp-output-shapes.json`)
 * they persist across sessions: read at start, written shortly after a new
 * shape is seen, merged under a lock with what other sessions wrote.
 */
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";

/** File name of the shapes file in Pi's agent directory. */
export const OUTPUT_SHAPES_FILE_NAME = "mcp-output-shapes.json";
/** At most this many fields are kept per shape, and this many tools per file. */
const MAX_FIELDS = 50;
const MAX_TOOLS = 2000;
const WRITE_DELAY_MS = 750;

export type OutputShape = Record<string, string>;

export class OutputShapes {
  private readonly shapes = new Map<string, OutputShape>();
  private readonly changed = new Set<string>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly file?: string) {
    if (!file) return;
    try {
      for (const [key, shape] of Object.entries(parseShapes(readFileSync(file, "utf8")))) {
        this.shapes.set(key, shape);
      }
    } catch {
      // no file yet, or not a shapes file: start empty (the next write replaces it)
    }
  }

  get(server: string, tool: string): OutputShape | undefined {
    return this.shapes.get(keyOf(server, tool));
  }

  /** Remembers the shape of a result (`structuredContent`, or a text that is a JSON object). */
  observe(server: string, tool: string, result: unknown): void {
    const shape = shapeOf(result);
    if (!shape) return;
    const key = keyOf(server, tool);
    if (JSON.stringify(this.shapes.get(key)) === JSON.stringify(shape)) return;
    this.shapes.set(key, shape);
    if (!this.file) return;
    this.changed.add(key);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), WRITE_DELAY_MS);
      this.timer.unref();
    }
  }

  /** Writes shapes seen since the last write (if there is a file); call at shutdown. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const file = this.file;
    if (!file || this.changed.size === 0) return;
    const keys = [...this.changed];
    this.changed.clear();
    try {
      await withFileLock(file, async () => {
        let onDisk: Record<string, OutputShape> = {};
        try {
          onDisk = parseShapes(await readFile(file, "utf8"));
        } catch {
          // missing or unreadable: this write starts it afresh
        }
        for (const key of keys) {
          const shape = this.shapes.get(key);
          if (!shape) continue;
          delete onDisk[key]; // re-inserted last: the oldest entries go first when the file is full
          onDisk[key] = shape;
        }
        const entries = Object.entries(onDisk).slice(-MAX_TOOLS);
        const data = { version: 1, shapes: Object.fromEntries(entries) };
        await writeFileAtomic(file, `${JSON.stringify(data)}\n`, { mode: 0o600 });
      });
    } catch {
      // hints only: a failed write costs nothing but the hint in a later session
    }
  }
}

function keyOf(server: string, tool: string): string {
  return `${server}/${tool}`;
}

function parseShapes(text: string): Record<string, OutputShape> {
  const data = JSON.parse(text) as { shapes?: unknown };
  const shapes: Record<string, OutputShape> = {};
  if (typeof data.shapes !== "object" || data.shapes === null) return shapes;
  for (const [key, shape] of Object.entries(data.shapes)) {
    if (typeof shape !== "object" || shape === null) continue;
    const fields = Object.entries(shape).filter((e): e is [string, string] => typeof e[1] === "string");
    shapes[key] = Object.fromEntries(fields.slice(0, MAX_FIELDS));
  }
  return shapes;
}

/** Top-level field → JSON type of an object (`array` and `null` named as such); nothing for other values. */
export function shapeOf(value: unknown): OutputShape | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const shape: OutputShape = {};
  for (const [key, field] of Object.entries(value).slice(0, MAX_FIELDS)) {
    shape[key] = field === null ? "null" : Array.isArray(field) ? "array" : typeof field;
  }
  return shape;
}
