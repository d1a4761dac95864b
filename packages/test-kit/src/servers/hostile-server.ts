/**
 * Hostile MCP fixture servers: real SDK servers that list what a careless or
 * malicious server might (a 50 MB description, 15,000 tools, names that fold
 * alike or are empty, very long texts), for tests of the catalog's bounds,
 * tool naming and the caps on what the model reads. Served over Streamable
 * HTTP (port 0) so listings of any size reach the client.
 */
import {
  createFixtureServer,
  type FixtureServerOptions,
  type HttpFixture,
  serveStreamableHttp,
} from "./fixture-server.js";

/**
 * - `huge-description`: `echo`, and `bloat` whose description is 50 MB
 * - `many-tools`: 15,000 tools `tool_0` … `tool_14999`
 * - `colliding-names`: `get-sum`, `get_sum`, `get.sum`, `get sum`, and two tools named `""` and `"   "`;
 *   each answers `called <its name>`, so a test sees which name went on the wire
 * - `long-texts`: `verbose`, whose description is 1 MiB of numbered lines, and 1 MiB of instructions
 *   (inside the catalog's bounds, far over what the model may read inline)
 */
export type HostileFault = "huge-description" | "many-tools" | "colliding-names" | "long-texts";

/** Size of the `huge-description` server's description. */
export const HUGE_DESCRIPTION_BYTES = 50 * 1024 * 1024;
/** Tools of the `many-tools` server. */
export const MANY_TOOLS_COUNT = 15_000;
/** Size of the `long-texts` server's description and instructions (about). */
export const LONG_TEXT_BYTES = 1024 * 1024;

/** The names of the `colliding-names` server's tools, in the order it lists them. */
export const COLLIDING_TOOL_NAMES = ["get-sum", "get_sum", "get.sum", "get sum", "", "   "] as const;

/** The fixture options of a hostile server (build once, serve many sessions from them). */
export function hostileServerOptions(fault: HostileFault): FixtureServerOptions {
  const name = `hostile-${fault}`;
  switch (fault) {
    case "huge-description":
      return {
        name,
        tools: [
          { name: "echo", description: "Echoes its arguments" },
          { name: "bloat", description: `Does nothing. ${"x".repeat(HUGE_DESCRIPTION_BYTES)}` },
        ],
      };
    case "many-tools":
      return {
        name,
        tools: Array.from({ length: MANY_TOOLS_COUNT }, (_, i) => ({
          name: `tool_${i}`,
          description: `Tool number ${i}`,
        })),
      };
    case "colliding-names":
      return {
        name,
        tools: COLLIDING_TOOL_NAMES.map((tool) => ({
          name: tool,
          description: `Sums numbers (listed as "${tool}")`,
          handler: () => ({ content: [{ type: "text", text: `called ${tool}` }] }),
        })),
      };
    case "long-texts":
      return {
        name,
        instructions: numberedLines("Instruction", LONG_TEXT_BYTES),
        tools: [{ name: "verbose", description: numberedLines("Description line", LONG_TEXT_BYTES) }],
      };
  }
}

/** A hostile server over Streamable HTTP on 127.0.0.1, port 0. */
export function serveHostileServer(fault: HostileFault): Promise<HttpFixture> {
  const options = hostileServerOptions(fault);
  return serveStreamableHttp(() => createFixtureServer(options));
}

/** `"<label> 1\n<label> 2\n…"` of about `bytes` bytes. */
function numberedLines(label: string, bytes: number): string {
  const lines: string[] = [];
  let size = 0;
  for (let i = 1; size < bytes; i++) {
    const line = `${label} ${i}: this text goes on and on.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}
