/**
 * Linux only: a process can inherit a *revoked* session keyring — a tmux
 * server started in a login session that has since ended passes it to every
 * shell and Pi it starts — and credential access from such a process can
 * fail. Where `keyctl` (keyutils) is on PATH, this module notices it
 * (`keyctl show @s` answers "Key has been revoked") and runs keyring
 * operations in a helper process started with a fresh session keyring
 * (`keyctl session - node …`), so a login can still save its tokens without
 * the user killing the tmux server. Values travel over the helper's stdin
 * and stdout, never its command line.
 */
import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import type { KeytarLike } from "./keytar-like.js";

export interface SessionKeyringOptions {
  platform?: NodeJS.Platform;
  /** The `keyctl` program; default `keyctl` from PATH. */
  keyctl?: string;
  /** The Node binary the helper runs on; default this process's. */
  node?: string;
}

/** True when this process's session keyring is revoked (false where that cannot be told). */
export function sessionKeyringRevoked(options: SessionKeyringOptions = {}): Promise<boolean> {
  if ((options.platform ?? process.platform) !== "linux") return Promise.resolve(false);
  return new Promise((resolve) => {
    execFile(options.keyctl ?? "keyctl", ["show", "@s"], { timeout: 5000 }, (error, _stdout, stderr) => {
      resolve(error !== null && /revoked/i.test(`${stderr}`));
    });
  });
}

// Runs one keytar call in the helper process: module path in argv, the call as JSON on stdin.
const HELPER = `
const { createRequire } = await import("node:module");
const keytar = createRequire(process.argv[1])(process.argv[1]);
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { op, service, account, value } = JSON.parse(input);
try {
  const result = op === "get" ? await keytar.getPassword(service, account)
    : op === "set" ? await keytar.setPassword(service, account, value)
    : await keytar.deletePassword(service, account);
  process.stdout.write(JSON.stringify({ result: result ?? null }));
} catch (error) {
  process.stderr.write(String(error && error.message || error));
  process.exit(1);
}
`;

/** The keytar module file the helper loads: the fork first, else the original. */
function keytarModulePath(): string {
  const require = createRequire(import.meta.url);
  try {
    return require.resolve("@github/keytar");
  } catch {
    return require.resolve("keytar");
  }
}

/** A keytar whose every call runs in a helper process with a fresh session keyring. */
export function freshSessionKeytar(options: SessionKeyringOptions = {}): KeytarLike {
  const modulePath = keytarModulePath();
  const call = (op: string, service: string, account: string, value?: string) =>
    new Promise<unknown>((resolve, reject) => {
      const child = spawn(
        options.keyctl ?? "keyctl",
        ["session", "-", options.node ?? process.execPath, "--input-type=module", "-e", HELPER, modulePath],
        { stdio: ["pipe", "pipe", "pipe"] },
      );
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (chunk) => {
        stdout += chunk;
      });
      child.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("error", reject);
      child.on("close", (code) => {
        if (code !== 0) {
          // keyctl prints "Joined session keyring: N" on stderr; the helper's own error follows it.
          const reason = stderr.replace(/^Joined session keyring:.*$/m, "").trim();
          reject(new Error(reason || `keyctl session helper exited with status ${code}`));
          return;
        }
        try {
          resolve((JSON.parse(stdout) as { result: unknown }).result);
        } catch {
          reject(new Error("keyctl session helper gave no answer"));
        }
      });
      child.stdin.end(JSON.stringify({ op, service, account, value }));
    });
  return {
    getPassword: async (service, account) => (await call("get", service, account)) as string | null,
    setPassword: async (service, account, password) => {
      await call("set", service, account, password);
    },
    deletePassword: async (service, account) => Boolean(await call("delete", service, account)),
  };
}
