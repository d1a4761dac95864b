/**
 * Shared servers in real Pi 1.6: `SESSIONS` Pi sessions (`--mode rpc`, one
 * user: one agent dir and HOME, one project) × `SERVERS` stdio
 * server-everything definitions (told apart by `BENCH_SERVER`), per column:
 * this checkout with `settings.shareServers` on, the same with it off, and
 * Pi's built-in MCP (exposure `codemode`, its default). Sessions start one
 * after another, each with the environment of another terminal (test-kit's
 * `terminalEnv`: TERM, PWD through a symlink, SHLVL, TMUX_PANE, … plus an
 * unrelated variable of its own); each makes its first call alone (to `s0`,
 * timed by Pi's `durationMs`), then a second server's first call, then calls
 * the other eight, so every server is connected in every session. Once all
 * sessions have called, everything is read from /proc: the Pi processes, the
 * server processes (command line and a marker in their environment), our
 * daemon (command line) with its watchdog, and anything else below Pi.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { stopDaemon } from "@pi-mcp-adapter/daemon";
import { createPiProject, type PiProject } from "@pi-mcp-adapter/e2e/pi-project";
import {
  type ChatRequest,
  type ScriptStep,
  serverEverythingPath,
  terminalEnv,
} from "@pi-mcp-adapter/test-kit";
import { PiRpcSession, type ToolExecution, waitFor } from "./pi-rpc-session.js";
import {
  commandLineOf,
  descendants,
  processesWhere,
  pssMiB,
  rssMiB,
  ussMiB,
} from "./side-by-side-processes.js";
import { ADAPTERS, pi16 } from "./side-by-side-project.js";
import { builtinToolName } from "./side-by-side-search-steps.js";

export const SESSIONS = 5;
export const SERVERS = 10;
/**
 * How long every process is left idle after the last session's calls before memory is read. An idle
 * Node process gives back its young generation a few seconds after its last work (V8's memory
 * reducer); read at once, servers used last (every shared one) weigh ~9 MiB more than servers idle since
 * an earlier session, a difference of when they were read rather than of what they hold.
 */
export const IDLE_BEFORE_READING_MS = 30_000;

export const SHARED_COLUMNS = ["shared", "own", "builtin"] as const;
export type SharedColumn = (typeof SHARED_COLUMNS)[number];

export interface Footprint {
  processes: number;
  rssMiB: number;
  pssMiB: number;
  ussMiB: number;
}

export interface SharedColumnResult {
  pi: Footprint;
  servers: Footprint;
  /** Our daemon and its watchdog (`sh`). */
  daemon: Footprint;
  /** Any other process below Pi (none expected). */
  other: Footprint;
  total: Footprint;
  /** Each session's first call (to `s0`), ms, in the order the sessions started. */
  firstCallMs: number[];
  /** The built-in only: the `mcp__s0__echo` call inside each session's first script, ms. */
  innerFirstCallMs: number[];
  /** Each session's first call to a second server (`s1`), right after, ms. */
  secondServerMs: number[];
  /** Server processes started from the second session's start to the end of its first call. */
  startedForSecondSession: number;
}

const names = Array.from({ length: SERVERS }, (_, i) => `s${i}`);

function text(content: unknown): string {
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((part) => (part as { text?: string }).text ?? "").join("") : "";
}

/** The prompt carries the session's tool calls; the model makes them one by one, then says "Done.". */
export function routeSteps(request: ChatRequest): ScriptStep {
  for (let at = request.messages.length - 1; at >= 0; at--) {
    const message = request.messages[at]!;
    if (message.role !== "user") continue;
    let steps: ScriptStep[] | undefined;
    try {
      steps = (JSON.parse(text(message.content)) as { steps?: ScriptStep[] }).steps;
    } catch {
      continue; // a note a host or extension put in the conversation, not our prompt
    }
    if (!steps) continue;
    const made = request.messages.slice(at + 1).filter((m) => m.role === "assistant").length;
    return steps[made] ?? { text: "Done." };
  }
  return { text: "Done." };
}

/** The session's calls: `s0` alone, `s1` alone, then the other eight. */
function callSteps(column: SharedColumn): ScriptStep[] {
  if (column === "builtin") {
    const call = (name: string) =>
      `tools.${builtinToolName(name, "echo")}({ message: ${JSON.stringify(name)} })`;
    const script = (code: string): ScriptStep => ({ toolCall: { name: "codemode", arguments: { code } } });
    return [
      script(`return await ${call("s0")};`),
      script(`return await ${call("s1")};`),
      script(`return await Promise.all([${names.slice(2).map(call).join(", ")}]);`),
    ];
  }
  return names.map((name) => ({
    toolCall: { name: "mcp", arguments: { tool: `${name}_echo`, args: { message: name } } },
  }));
}

/**
 * The executions of the tool the model called (`mcp`, or the built-in's `codemode`; a codemode script's own
 * calls to `mcp__…` tools also end in events), each checked to echo its servers' names.
 */
function modelCalls(session: PiRpcSession, column: SharedColumn): ToolExecution[] {
  const called = session.executions.filter((e) => e.toolName === (column === "builtin" ? "codemode" : "mcp"));
  const expected = column === "builtin" ? [["s0"], ["s1"], names.slice(2)] : names.map((n) => [n]);
  expected.forEach((servers, i) => {
    const execution = called[i];
    const missing = servers.filter((n) => !execution?.text.includes(`Echo: ${n}`));
    if (!execution || execution.isError || missing.length) {
      throw new Error(
        `${session.label}: call ${i + 1} did not echo ${missing.join(", ")}: ${execution?.text.slice(0, 600)}`,
      );
    }
  });
  return called;
}

function footprint(pids: number[]): Footprint {
  return { processes: pids.length, rssMiB: rssMiB(pids), pssMiB: pssMiB(pids), ussMiB: ussMiB(pids) };
}

function writeConfig(project: PiProject, column: SharedColumn, mark: string): void {
  const mcpServers = Object.fromEntries(
    names.map((name, i) => [
      name,
      {
        command: process.execPath,
        args: [serverEverythingPath],
        env: { BENCH_SERVER: String(i), BENCH_MARK: mark },
      },
    ]),
  );
  const file = column === "builtin" ? "mcp.json" : "mcp-adapter.json";
  const settings = column === "builtin" ? undefined : { shareServers: column === "shared" };
  writeFileSync(path.join(project.agentDir, file), JSON.stringify({ settings, mcpServers }));
}

/** Terminal `i`'s environment: PWD through a symlink of its own, and a variable no other terminal has. */
function terminal(project: PiProject, i: number): Record<string, string> {
  const pwd = project.join(`terminal-${i}`);
  symlinkSync(project.dir, pwd);
  return {
    ...terminalEnv(i, pwd, project.home),
    [`BENCH_TERMINAL_${i}`]: `${Date.now()}`,
    EDITOR: i % 2 ? "vim" : "nano",
  };
}

export async function measureSharedColumn(
  column: SharedColumn,
  log: (line: string) => void,
): Promise<SharedColumnResult> {
  await using project = await createPiProject({
    host: pi16(),
    steps: Array.from({ length: SESSIONS * (SERVERS + 2) * 2 }, () => routeSteps),
  });
  const mark = path.basename(project.root);
  writeConfig(project, column, mark);
  const servers = () =>
    processesWhere(
      (cmd, env) => cmd.includes(serverEverythingPath) && env.split("\0").includes(`BENCH_MARK=${mark}`),
    );
  const daemons = () => processesWhere((cmd) => cmd.split("\0").includes(`${project.agentDir}/mcp-daemon`));
  const builtin = ADAPTERS.codemode;
  const sessions: PiRpcSession[] = [];
  const result = {
    firstCallMs: [] as number[],
    secondServerMs: [] as number[],
    innerFirstCallMs: [] as number[],
    startedForSecondSession: Number.NaN,
  };
  try {
    for (let i = 0; i < SESSIONS; i++) {
      const before = servers().length;
      const extra =
        column === "builtin" ? { extension: builtin.extension, extraArgs: builtin.extraArgs } : {};
      const session = new PiRpcSession(
        project.rpc({ ...extra, env: terminal(project, i) }),
        `${column} session ${i + 1}`,
      );
      sessions.push(session);
      await session.ready();
      // The built-in connects every server as a session starts: its calls come once its processes run.
      if (column === "builtin") {
        await session.until(() => {
          const running = servers();
          return descendants(session.pid).filter((pid) => running.includes(pid)).length >= SERVERS;
        }, `${SERVERS} server processes below Pi`);
      }
      let startedByFirstCall = Number.NaN;
      session.onExecution = () => {
        if (Number.isNaN(startedByFirstCall)) startedByFirstCall = servers().length - before;
      };
      await session.prompt(JSON.stringify({ steps: callSteps(column) }));
      const [first, second] = modelCalls(session, column);
      result.firstCallMs.push(first!.durationMs);
      result.secondServerMs.push(second!.durationMs);
      const inner = session.executions.find((e) => e.toolName === builtinToolName("s0", "echo"));
      if (inner) result.innerFirstCallMs.push(inner.durationMs);
      if (i === 1) result.startedForSecondSession = startedByFirstCall;
      log(`  ${session.label}: first call ${first!.durationMs} ms, ${servers().length} servers`);
    }
    await new Promise((resolve) => setTimeout(resolve, IDLE_BEFORE_READING_MS));
    const pis = sessions.map((s) => s.pid);
    const serverPids = servers();
    const notServer = (pid: number) => !serverPids.includes(pid);
    // The daemon with its watchdog (a small `sh` that stops the servers if the daemon dies hard).
    const daemon = daemons().flatMap((pid) => [pid, ...descendants(pid).filter(notServer)]);
    const other = pis.flatMap(descendants).filter((pid) => notServer(pid) && !daemon.includes(pid));
    for (const pid of other) log(`  other process ${pid}: ${commandLineOf(pid)?.slice(0, 300) ?? "(gone)"}`);
    const tree = [...pis, ...serverPids, ...daemon, ...other];
    return {
      ...result,
      pi: footprint(pis),
      servers: footprint(serverPids),
      daemon: footprint(daemon),
      other: footprint(other),
      total: footprint(tree),
    };
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
    await stopDaemon(project.agentDir).catch(() => false);
    await waitFor(
      () => servers().length === 0,
      `the ${column} column's server processes to exit`,
      60_000,
    ).catch((error: Error) => log(`  ${error.message}`));
  }
}

/** Each of `columns` in turn, into `into` as it is measured (so a failure keeps the columns before it). */
export async function measureShared(
  columns: readonly SharedColumn[],
  into: Partial<Record<SharedColumn, SharedColumnResult>>,
  log: (line: string) => void,
): Promise<void> {
  log(`Shared servers, ${SESSIONS} Pi sessions × ${SERVERS} servers: ${columns.join(", ")}…`);
  for (const column of columns) {
    log(`${column}…`);
    into[column] = await measureSharedColumn(column, log);
  }
}
