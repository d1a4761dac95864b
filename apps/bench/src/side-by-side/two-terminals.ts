/**
 * `npm run bench:shared -w apps/bench -- --two-terminals`: a check, not a
 * figure. Two interactive Pi 1.6 sessions of one user, each typed into its own
 * tmux window (a real `bash` with the environment tmux and the shell give it:
 * TERM, TMUX_PANE, SHLVL, PWD, and variables only one window has), with
 * `shareServers` on and two stdio servers. Each session calls both servers;
 * then it prints how the two Pi processes' environments differ, the server
 * processes (found by a marker in their environment), the daemons, and what
 * `pi-mcp-adapter daemon status` says. Sharing works when each server runs
 * once, with two sessions on it, under one daemon.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { stopDaemon } from "@pi-mcp-adapter/daemon";
import { piCommand } from "@pi-mcp-adapter/e2e/pi-hosts";
import { createPiProject } from "@pi-mcp-adapter/e2e/pi-project";
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { waitFor } from "./pi-rpc-session.js";
import { routeSteps } from "./shared-pi-sessions.js";
import { processesWhere } from "./side-by-side-processes.js";
import { pi16 } from "./side-by-side-project.js";

const cli = fileURLToPath(new URL("../../../../packages/pi-mcp-adapter/dist/cli/main.js", import.meta.url));
const quote = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;

function environ(pid: number): Map<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter(Boolean);
  return new Map(pairs.map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
}

export async function checkTwoTerminals(log: (line: string) => void): Promise<string[]> {
  const host = pi16();
  await using project = await createPiProject({ host, steps: Array.from({ length: 40 }, () => routeSteps) });
  const mark = path.basename(project.root);
  const mcpServers = Object.fromEntries(
    ["alpha", "beta"].map((name) => [
      name,
      // Told apart by a variable: two identical definitions are one process to the daemon, whatever their names.
      {
        command: process.execPath,
        args: [serverEverythingPath],
        env: { BENCH_MARK: mark, BENCH_SERVER: name },
      },
    ]),
  );
  writeFileSync(
    path.join(project.agentDir, "mcp-adapter.json"),
    JSON.stringify({ settings: { shareServers: true }, mcpServers }),
  );
  const linked = project.join("linked-project");
  symlinkSync(project.dir, linked);
  const socket = project.join("tmux.sock");
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
  const { args, env } = piCommand(
    { host, cwd: project.dir, agentDir: project.agentDir, home: project.home },
    "interactive",
  );
  // What the user's shell profile would export: the isolated agent dir and HOME, Node 22 first on PATH.
  const exports = ["PI_CODING_AGENT_DIR", "HOME", "PATH"].map((k) => `export ${k}=${quote(env[k] ?? "")}`);
  args.splice(args.indexOf("--mode"), 2); // interactive is Pi's default mode
  const piLine = [host.node, ...args].map(quote).join(" ");
  const windows = [
    {
      name: "one",
      dir: project.dir,
      extra: ["-e", "TERM=xterm-256color", "-e", "TERM_PROGRAM=iTerm.app", "-e", "ITERM_SESSION_ID=w0t0p0"],
    },
    {
      name: "two",
      dir: linked,
      // A shell a level deeper (SHLVL), as inside an editor's terminal.
      extra: [
        "-e",
        "TERM=screen-256color",
        "-e",
        "TERM_PROGRAM=vscode",
        "-e",
        "VSCODE_PID=4242",
        "-e",
        "SHLVL=3",
      ],
    },
  ];
  const servers = () =>
    processesWhere(
      (cmd, e) => cmd.includes(serverEverythingPath) && e.split("\0").includes(`BENCH_MARK=${mark}`),
    );
  const daemons = () => processesWhere((cmd) => cmd.split("\0").includes(`${project.agentDir}/mcp-daemon`));
  const pis: number[] = [];
  const screen = (target: string) => tmux("capture-pane", "-p", "-t", target);
  tmux("new-session", "-d", "-s", "bench", "-x", "160", "-y", "45", "-n", "zero", "bash --norc --noprofile");
  try {
    for (const w of windows) {
      tmux("new-window", "-t", "bench", "-n", w.name, ...w.extra, "-c", w.dir, "bash --norc --noprofile");
      const target = `bench:${w.name}`;
      const until = (condition: () => boolean, what: string) =>
        waitFor(condition, `${what} in window ${w.name}`, 90_000).catch((error: Error) => {
          throw new Error(`${error.message}; the screen:\n${screen(target)}`);
        });
      tmux("send-keys", "-t", target, "-l", `cd ${quote(w.dir)}; ${exports.join("; ")}; exec ${piLine}\n`);
      // The pane's shell execs Pi: the pane's process is Pi once its command line is no longer bash's.
      const pane = Number(tmux("display-message", "-p", "-t", target, "#{pane_pid}").trim());
      await until(() => !readFileSync(`/proc/${pane}/cmdline`, "utf8").startsWith("bash"), "Pi");
      pis.push(pane);
      // Our footer status: set once the extension started, which Pi does after it enabled the editor.
      await until(() => screen(target).includes("MCP: "), "our footer status");
      for (const server of ["alpha", "beta"]) {
        const message = `${server} from terminal ${w.name}`;
        const steps = [
          { toolCall: { name: "mcp", arguments: { tool: `${server}_echo`, args: { message } } } },
        ];
        // Pasted (bracketed, as a terminal pastes), then Enter once the line shows.
        tmux("set-buffer", "-b", "prompt", JSON.stringify({ steps }));
        tmux("paste-buffer", "-p", "-b", "prompt", "-t", target);
        await until(() => screen(target).includes(message), "the prompt in the editor");
        tmux("send-keys", "-t", target, "Enter");
        await until(
          () =>
            project.model.requests.some((r) =>
              toolResultTexts(r).some((t) => t.includes(`Echo: ${message}`)),
            ),
          `the echo of "${message}"`,
        );
      }
    }
    const [a, b] = pis.map(environ);
    const differing = [...new Set([...a!.keys(), ...b!.keys()])]
      .filter((k) => a!.get(k) !== b!.get(k))
      .sort();
    const shown = (e: Map<string, string>, k: string) => (e.has(k) ? e.get(k) : "(unset)");
    const status = JSON.parse(
      execFileSync(process.execPath, [cli, "--json", "daemon", "status"], {
        encoding: "utf8",
        env: { ...process.env, PI_CODING_AGENT_DIR: project.agentDir },
      }),
    ) as { daemon: { pid: number; servers: { name: string; pid: number; sessions: number }[] } | null };
    const report = [
      `Pi processes: ${pis.filter((pid) => existsSync(`/proc/${pid}`)).length}; their environments differ in ${differing.length} variables: ${differing.join(", ")}`,
      ...["TERM", "PWD", "SHLVL", "TMUX_PANE", "TERM_PROGRAM"].map(
        (k) => `  ${k}: ${shown(a!, k)} | ${shown(b!, k)}`,
      ),
      `server processes (marker in their environment): ${servers().length}, pids ${servers().join(", ")}`,
      `daemons for this agent dir: ${daemons().length}, pid ${daemons().join(", ")}`,
      `daemon status: pid ${status.daemon?.pid}; ${status.daemon?.servers.map((s) => `${s.name} pid ${s.pid}, ${s.sessions} sessions`).join("; ")}`,
    ];
    for (const line of report) log(line);
    return report;
  } finally {
    tmux("kill-server");
    await waitFor(
      () => pis.every((pid) => !existsSync(`/proc/${pid}`)),
      "both Pi processes to exit",
      30_000,
    ).catch(() => {});
    await stopDaemon(project.agentDir).catch(() => false);
  }
}
