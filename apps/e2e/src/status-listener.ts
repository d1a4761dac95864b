/**
 * A second Pi extension that only listens to the adapter's status events, as
 * a status-bar extension would, appending each snapshot to a JSONL file.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { MCP_STATUS_EVENT, type McpStatusSnapshot } from "pi-mcp-adapter";

export interface StatusListener {
  /** The extension file, for Pi's `-e`. */
  extension: string;
  /** The snapshots received so far, in order. */
  snapshots(): Promise<McpStatusSnapshot[]>;
}

export async function writeStatusListener(dir: string): Promise<StatusListener> {
  const log = path.join(dir, "snapshots.jsonl");
  const extension = path.join(dir, "status-listener.ts");
  await writeFile(
    extension,
    `import { appendFileSync } from "node:fs";
export default function (pi: any) {
  pi.events.on(${JSON.stringify(MCP_STATUS_EVENT)}, (snapshot: unknown) => {
    appendFileSync(${JSON.stringify(log)}, JSON.stringify(snapshot) + "\\n");
  });
}
`,
  );
  return {
    extension,
    snapshots: async () =>
      (await readFile(log, "utf8"))
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as McpStatusSnapshot),
  };
}
