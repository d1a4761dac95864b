/**
 * `!command` secrets: a value starting with `!` is a shell command whose
 * trimmed stdout is the secret. Run only when connecting or authenticating.
 * stdin (unless given input) and stderr are ignored, stdout is capped at 1 MiB, the command gets
 * 10 s, and empty output is an error. Errors never contain the output.
 */
import { spawn } from "node:child_process";
import { ConfigError } from "../errors.js";

export const SECRET_COMMAND_TIMEOUT_MS = 10_000;
export const SECRET_COMMAND_MAX_BYTES = 1024 * 1024;

export function isSecretCommand(value: string): boolean {
  return value.startsWith("!") && value.slice(1).trim() !== "";
}

/**
 * Runs one secret command; rejects with a `ConfigError` (`secret_failed`) whose
 * message is a reason to put after "the secret command …", never the output.
 */
export type SecretCommandRunner = (
  command: string,
  options: {
    cwd?: string;
    env?: NodeJS.ProcessEnv;
    /** Run `command` as a program with these arguments instead of through a shell. */
    args?: readonly string[];
    /** Written to the command's stdin (otherwise stdin is closed). */
    input?: string;
  },
) => Promise<string>;

/** A runner with other limits (tests use a short timeout). */
export function createSecretCommandRunner(
  limits: { timeoutMs?: number; maxBytes?: number } = {},
): SecretCommandRunner {
  const timeoutMs = limits.timeoutMs ?? SECRET_COMMAND_TIMEOUT_MS;
  const maxBytes = limits.maxBytes ?? SECRET_COMMAND_MAX_BYTES;
  return (command, options) =>
    new Promise((resolve, reject) => {
      const child = spawn(command, options.args ?? [], {
        shell: options.args === undefined,
        cwd: options.cwd,
        env: options.env,
        // stdin is an empty pipe unless there is input: it reads as closed either way.
        stdio: ["pipe", "pipe", "ignore"],
        windowsHide: true,
        // Its own process group, so a timeout kills the whole pipeline, not just the shell.
        detached: process.platform !== "win32",
      });
      const kill = () => {
        try {
          if (process.platform !== "win32" && child.pid) process.kill(-child.pid, "SIGKILL");
          else child.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      };
      const chunks: Buffer[] = [];
      let size = 0;
      let settled = false;
      const failed = (reason: string) => new ConfigError("secret_failed", reason);
      const finish = (error?: Error, value?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (error) reject(error);
        else resolve(value ?? "");
      };
      const timer = setTimeout(() => {
        kill();
        finish(failed(`timed out after ${timeoutMs / 1000} s`));
      }, timeoutMs);
      child.stdout.on("data", (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > maxBytes) {
          kill();
          finish(failed(`printed more than ${maxBytes} bytes`));
          return;
        }
        chunks.push(chunk);
      });
      child.stdin.on("error", () => {}); // a command that does not read its input
      child.stdin.end(options.input);
      child.on("error", (error) =>
        finish(failed(`could not start (${(error as NodeJS.ErrnoException).code ?? "error"})`)),
      );
      child.on("close", (code, signal) => {
        if (code !== 0) {
          finish(failed(signal ? `was killed by ${signal}` : `exited with status ${code}`));
          return;
        }
        const output = Buffer.concat(chunks).toString("utf8").trim();
        if (!output) finish(failed("printed nothing"));
        else finish(undefined, output);
      });
    });
}

export const runSecretCommand: SecretCommandRunner = createSecretCommandRunner();
