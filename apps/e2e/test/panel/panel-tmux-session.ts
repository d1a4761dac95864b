/**
 * A real terminal for Pi's interactive mode: a tmux session on its own
 * socket (never the developer's tmux server), keys sent with `send-keys`,
 * the screen read with `capture-pane`, and waits that poll the screen until
 * a deadline instead of sleeping.
 */
import { execFileSync } from "node:child_process";
import { type PiHost, piCommand } from "../../src/pi-hosts.js";
import type { PiProject } from "../../src/pi-project.js";

export interface TmuxSession {
  /** Sends tmux key names (`Enter`, `Down`, `C-s`, `Escape`, `Space`). */
  keys(...keys: string[]): void;
  /** Types text literally. */
  type(text: string): void;
  /** The visible screen as plain text. */
  screen(): string;
  /** Polls the screen until `test` accepts it; throws with the last screen at the deadline. */
  waitFor(what: string, test: (screen: string) => boolean, timeoutMs?: number): Promise<string>;
  kill(): void;
}

/** Shell-quotes one word. */
function quote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function startTmux(options: {
  /** The socket file (inside the test's temp dir). */
  socket: string;
  cwd: string;
  command: string[];
  env: NodeJS.ProcessEnv;
  width?: number;
  height?: number;
}): TmuxSession {
  const tmux = (...args: string[]) =>
    execFileSync("tmux", ["-S", options.socket, ...args], {
      encoding: "utf8",
      env: { PATH: process.env.PATH },
    });
  // The command runs under `env -i` so nothing from the test runner's environment leaks into Pi.
  const env = Object.entries(options.env)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => quote(`${key}=${value}`));
  const line = ["env", "-i", "TERM=xterm-256color", ...env, ...options.command.map(quote)].join(" ");
  tmux(
    "-f",
    "/dev/null",
    "new-session",
    "-d",
    "-s",
    "pi",
    "-x",
    String(options.width ?? 160),
    "-y",
    String(options.height ?? 50),
    "-c",
    options.cwd,
    line,
  );
  // Keep the pane after Pi exits, so a crash stays readable in the failure message.
  tmux("set-option", "-t", "pi", "remain-on-exit", "on");
  const screen = () => tmux("capture-pane", "-p", "-t", "pi");
  return {
    keys: (...keys) => void tmux("send-keys", "-t", "pi", ...keys),
    type: (text) => void tmux("send-keys", "-t", "pi", "-l", text),
    screen,
    async waitFor(what, test, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      let last = "";
      while (Date.now() < deadline) {
        last = screen();
        if (test(last)) return last;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`timed out waiting for ${what}; the screen:\n${last}`);
    },
    kill: () => {
      try {
        tmux("kill-server");
      } catch {
        // already gone
      }
    },
  };
}

/** Pi's interactive mode for `project` in a fresh tmux session (socket inside the project's temp dir). */
export function startPiInTmux(host: PiHost, project: PiProject): TmuxSession {
  const { args, env } = piCommand(
    { host, cwd: project.dir, agentDir: project.agentDir, home: project.home },
    "text",
  );
  return startTmux({
    socket: project.join("tmux.sock"),
    cwd: project.dir,
    command: [host.node, ...args],
    env,
  });
}
