/**
 * Shared servers end to end, on both Pi lines: two Pi processes (`--mode
 * rpc`, so both declare the same client capabilities) with
 * `settings.shareServers: true` and one stdio server-everything. Their
 * environments differ as two real terminals' do (TERM_SESSION_ID, TMUX_PANE,
 * WINDOWID, OLDPWD, SHLVL, `_`, PWD through a symlink, TERM).
 * - both call it, exactly one server-everything process runs, each session
 *   gets its own results, and the CLI's `daemon status` counts two sessions;
 * - a second server whose `env` references a variable the two sessions set
 *   differently runs twice, one session each;
 * - an elicitation from the server reaches only the session whose call made
 *   it, while the other session calls the same process meanwhile;
 * - the daemon is killed mid-session: the next call of each session works;
 * - after both Pi processes exit and the idle time (0.25 min here) and the
 *   daemon's exit delay (`PI_MCP_DAEMON_EXIT_MS`) pass, no process is left.
 * Processes are found in /proc: server-everything by a marker variable in its
 * environment, the daemon by its `--dir` argument.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { fileURLToPath } from "node:url";
import {
  type ChatRequest,
  type ScriptStep,
  serverEverythingPath,
  terminalEnv,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it, vi } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { type RpcMessage, rpcMessages, type UiAnswer, type UiRequest } from "../../src/rpc-messages.js";

const cli = fileURLToPath(new URL("../../../../packages/pi-mcp-adapter/dist/cli/main.js", import.meta.url));
const DEADLINE = { timeout: 90_000, interval: 100 };

/** Each prompt is the call to make, as JSON; the model makes it, then says "ok". Results are kept per prompt. */
function callRouter(results: Map<string, string>) {
  return (request: ChatRequest): ScriptStep => {
    const prompt = lastUserText(request);
    if (request.messages.at(-1)?.role === "tool") {
      results.set(prompt, toolResultTexts(request).at(-1) ?? "");
      return { text: "ok" };
    }
    const call = JSON.parse(prompt) as { server?: string; tool: string; args: Record<string, unknown> };
    const tool = `${call.server ?? "everything"}_${call.tool}`;
    return { toolCall: { name: "mcp", arguments: { tool, args: call.args } } };
  };
}

function lastUserText(request: ChatRequest): string {
  const content = request.messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return (content as { text?: string }[]).map((part) => part.text ?? "").join("");
}

/** One long-lived Pi in RPC mode: prompts one at a time, answering its dialogs with `answer`. */
class RpcSession {
  readonly dialogs: UiRequest[] = [];
  private ends = 0;
  private readonly exited: Promise<void>;
  constructor(
    private readonly child: ReturnType<PiProject["rpc"]>,
    private readonly answer: (request: UiRequest) => UiAnswer | Promise<UiAnswer> = () => undefined,
  ) {
    this.exited = new Promise((resolve) => child.once("exit", () => resolve()));
    void this.read();
  }
  private async read(): Promise<void> {
    for await (const message of rpcMessages(this.child.stdout)) await this.handle(message);
  }
  private async handle(message: RpcMessage): Promise<void> {
    if (message.type === "agent_end") this.ends++;
    if (
      message.type !== "extension_ui_request" ||
      !["select", "input", "confirm"].includes(message.method ?? "")
    )
      return;
    const request = { method: message.method ?? "", title: message.title ?? "", options: message.options };
    this.dialogs.push(request);
    const value = await this.answer(request);
    const reply =
      value === undefined
        ? { cancelled: true }
        : typeof value === "boolean"
          ? { confirmed: value }
          : { value };
    this.send({ type: "extension_ui_response", id: message.id, ...reply });
  }
  private send(command: unknown): void {
    this.child.stdin.write(`${JSON.stringify(command)}\n`);
  }
  /** Sends `call` (tool and args, of `server`) as the prompt and waits for the agent to finish. */
  async call(tool: string, args: Record<string, unknown> = {}, server?: string): Promise<string> {
    const before = this.ends;
    const prompt = JSON.stringify({ tool, args, ...(server ? { server } : {}) });
    this.send({ type: "prompt", message: prompt });
    await vi.waitUntil(() => this.ends > before, DEADLINE);
    return prompt;
  }
  async exit(): Promise<void> {
    this.child.kill();
    await this.exited;
  }
}

/** Live (not zombie) pids whose /proc entry matches. */
function pidsWhere(match: (environ: string, cmdline: string) => boolean): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (stat.slice(stat.lastIndexOf(")") + 2)[0] === "Z") continue;
      if (
        match(readFileSync(`/proc/${entry}/environ`, "utf8"), readFileSync(`/proc/${entry}/cmdline`, "utf8"))
      )
        pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return pids;
}

describe.each(piHosts())("$label", (host) => {
  it("two sessions share one server-everything through the daemon, which may die and leaves nothing behind", {
    timeout: 300_000,
  }, async () => {
    const results = new Map<string, string>();
    const marker = `SHARED_E2E=${host.label}-${process.pid}-${Date.now()}`;
    await using project = await createPiProject({
      host,
      adapterConfig: {
        settings: { shareServers: true, idleTimeout: 0.25 },
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [serverEverythingPath],
            env: { [marker.split("=")[0]!]: marker.split("=")[1]! },
          },
          // Configured per user: a different value of a variable it references is another server.
          token: {
            command: process.execPath,
            args: [serverEverythingPath],
            env: { TOKEN_E2E: `${marker}:\${E2E_TOKEN}` },
          },
        },
      },
      steps: Array.from({ length: 40 }, () => callRouter(results)),
    });
    const servers = (variable = "SHARED_E2E") =>
      pidsWhere(
        (env, cmd) =>
          env.split("\0").some((v) => v.startsWith(variable) && v.includes(marker)) &&
          cmd.includes(serverEverythingPath),
      );
    const daemons = () =>
      pidsWhere((_env, cmd) => cmd.split("\0").includes(`${project.agentDir}/mcp-daemon`));
    const daemonStatus = () =>
      JSON.parse(
        execFileSync(process.execPath, [cli, "--json", "daemon", "status"], {
          encoding: "utf8",
          env: { ...process.env, PI_CODING_AGENT_DIR: project.agentDir },
        }),
      ) as {
        running: boolean;
        daemon: { pid: number; servers: { name: string; pid: number; sessions: number }[] } | null;
      };

    // B holds A's form open until its own call through the same process is done.
    let bCalledMeanwhile: () => void = () => {};
    const bDone = new Promise<void>((resolve) => {
      bCalledMeanwhile = resolve;
    });
    // Two terminals in one project, B's through a symlink (its PWD differs; its real cwd does not).
    const linked = project.join("linked-project");
    symlinkSync(project.dir, linked);
    const env = { PI_MCP_DAEMON_EXIT_MS: "3000" };
    const envA = { ...env, ...terminalEnv(1, project.dir, project.home), E2E_TOKEN: "alice" };
    const envB = { ...env, ...terminalEnv(2, linked, project.root), E2E_TOKEN: "bob" };
    const a = new RpcSession(project.rpc({ env: envA }), async (request) => {
      await bDone;
      return request.title.startsWith('MCP server "everything" asks for input:') ? "Decline" : undefined;
    });
    const b = new RpcSession(project.rpc({ env: envB }));
    try {
      const fromA = await a.call("echo", { message: "from A" });
      const fromB = await b.call("echo", { message: "from B" });
      expect(results.get(fromA)).toContain("Echo: from A");
      expect(results.get(fromA)).not.toContain("from B");
      expect(results.get(fromB)).toContain("Echo: from B");
      expect(servers()).toHaveLength(1);
      const status = daemonStatus();
      const named = (name: string, { daemon } = status) => daemon?.servers.filter((s) => s.name === name);
      expect(named("everything")).toEqual([expect.objectContaining({ pid: servers()[0], sessions: 2 })]);

      // A server whose env references E2E_TOKEN: alice's and bob's sessions get one process each.
      const tokenA = await a.call("echo", { message: "A to token" }, "token");
      const tokenB = await b.call("echo", { message: "B to token" }, "token");
      expect(results.get(tokenA)).toContain("Echo: A to token");
      expect(results.get(tokenB)).toContain("Echo: B to token");
      expect(servers("TOKEN_E2E")).toHaveLength(2);
      const tokens = named("token", daemonStatus());
      expect(tokens?.map((s) => s.sessions)).toEqual([1, 1]);
      expect(new Set(tokens?.map((s) => s.pid))).toEqual(new Set(servers("TOKEN_E2E")));

      // A's call asks for input; the form reaches A only, while B uses the same server process.
      const asking = a.call("trigger-elicitation-request");
      await vi.waitUntil(() => a.dialogs.length > 0, DEADLINE);
      const meanwhile = await b.call("echo", { message: "while A is asked" });
      bCalledMeanwhile();
      const asked = await asking;
      expect(results.get(meanwhile)).toContain("Echo: while A is asked");
      expect(a.dialogs.map((d) => d.title.split("\n")[0])).toEqual([
        'MCP server "everything" asks for input:',
      ]);
      expect(b.dialogs).toEqual([]);
      expect(results.get(asked)).toMatch(/declined/i);

      // The daemon dies mid-session: each session's next call starts a new one and works.
      const [daemon] = daemons();
      expect(daemon).toBe(status.daemon?.pid);
      process.kill(daemon!, "SIGKILL");
      // Gone from /proc: reaped, so every thread has closed its files (a zombie's cmdline is empty sooner).
      await vi.waitUntil(() => !existsSync(`/proc/${daemon}`), DEADLINE);
      const againA = await a.call("echo", { message: "A after the daemon died" });
      const againB = await b.call("echo", { message: "B after the daemon died" });
      expect(results.get(againA)).toContain("Echo: A after the daemon died");
      expect(results.get(againB)).toContain("Echo: B after the daemon died");
      expect(daemons()).toHaveLength(1);
      await vi.waitUntil(() => servers().length === 1, DEADLINE);
    } finally {
      await Promise.all([a.exit(), b.exit()]);
    }
    // Both sessions gone: after the idle time the server stops, then the daemon exits.
    await vi.waitUntil(
      () => servers().length + servers("TOKEN_E2E").length === 0 && daemons().length === 0,
      DEADLINE,
    );
  });
});
