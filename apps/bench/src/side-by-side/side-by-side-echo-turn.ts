/**
 * One call to a server's tool as a model turn through Pi, per column: the
 * time from answering a model request with the call to the next request
 * carrying its result (Pi's own turn included), median over the calls after
 * a warm-up. The server is server-everything on stdio (`echo`); ours and
 * 2.36 call it through their `mcp` proxy tool, the built-in with `codemode`
 * exposure through a script, with `deferred` directly once `tool_search`
 * loaded it.
 */
import { type ScriptStep, serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { median } from "../transport/transport-measure.js";
import type { AdapterId, BenchProject } from "./side-by-side-project.js";
import { builtinToolName } from "./side-by-side-search-steps.js";

const WARMUP = 3;
const ECHO = { message: "hello" };
const BUILTIN_ECHO = builtinToolName("everything", "echo");

function callSteps(id: AdapterId): { setup: ScriptStep[]; call: ScriptStep } {
  if (id === "codemode") {
    const code = `return await tools.${BUILTIN_ECHO}(${JSON.stringify(ECHO)});`;
    return { setup: [], call: { toolCall: { name: "codemode", arguments: { code } } } };
  }
  if (id === "deferred") {
    return {
      setup: [{ toolCall: { name: "tool_search", arguments: { query: BUILTIN_ECHO, limit: 1 } } }],
      call: { toolCall: { name: BUILTIN_ECHO, arguments: ECHO } },
    };
  }
  return {
    setup: [],
    call: { toolCall: { name: "mcp", arguments: { tool: "everything_echo", args: ECHO } } },
  };
}

export async function measureEchoTurns(
  projects: BenchProject[],
  calls: number,
): Promise<Partial<Record<AdapterId, number>>> {
  const result: Partial<Record<AdapterId, number>> = {};
  const columns = projects.filter((p) => p.adapter.kind !== "none");
  const turns = new Map<AdapterId, number[]>(columns.map((p) => [p.adapter.id, []]));
  for (const p of columns) {
    p.configure({ everything: { command: process.execPath, args: [serverEverythingPath] } });
  }
  // Interleaved: each round runs one session per column, the order rotating.
  const rounds = 3;
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < columns.length; k++) {
      const p = columns[(r + k) % columns.length]!;
      const { setup, call } = callSteps(p.adapter.id);
      const run = await p.run([...setup, ...Array.from({ length: WARMUP + calls }, () => call)]);
      const texts = run.requests.slice(setup.length + 1).map((q) => JSON.stringify(q.messages.at(-1)));
      if (texts.length < WARMUP + calls || !texts.every((t) => t.includes("hello"))) {
        throw new Error(
          `${p.adapter.label}: an echo call did not return "hello":\n${texts.at(-1)?.slice(0, 800)}`,
        );
      }
      for (let i = setup.length + WARMUP; i < setup.length + WARMUP + calls; i++) {
        turns.get(p.adapter.id)!.push(run.arrivals[i + 1]! - run.arrivals[i]!);
      }
    }
  }
  for (const p of columns) result[p.adapter.id] = median(turns.get(p.adapter.id)!);
  return result;
}
