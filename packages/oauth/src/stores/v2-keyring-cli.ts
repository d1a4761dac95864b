/**
 * Reads an entry pi-mcp-adapter 2.x left in the OS keyring with the OS's own
 * tool, so no keyring binding has to be installed for a one-time import: 2.x
 * wrote through @napi-rs/keyring, whose entries carry the attributes
 * `service` and `username` (Secret Service, read by `secret-tool` from
 * libsecret-tools) or a service and account (macOS keychain, read by
 * `security`). Elsewhere, or without the tool, the keyring is unavailable.
 */
import { execFile } from "node:child_process";

/** The read part of a keyring: the value, or undefined when there is none. */
export type V2KeyringGet = (service: string, account: string) => Promise<string | undefined>;

/** What reads 2.x's entries on this OS; throws when nothing can (the message names the tool to install). */
export async function loadCliKeyring(timeoutMs: number): Promise<V2KeyringGet> {
  if (process.platform === "linux") {
    return async (service, account) =>
      run(
        "secret-tool",
        ["lookup", "service", service, "username", account],
        timeoutMs,
        (code, stderr) =>
          // `secret-tool lookup` exits 1 with nothing said when no entry matches.
          code === 1 && stderr.trim() === "",
      );
  }
  if (process.platform === "darwin") {
    return async (service, account) => {
      const value = await run(
        "security",
        ["find-generic-password", "-s", service, "-a", account, "-w"],
        timeoutMs,
        // 44: "The specified item could not be found in the keychain."
        (code) => code === 44,
      );
      return value?.replace(/\n$/, "");
    };
  }
  throw new Error(`2.x's keyring entries are not read on ${process.platform}`);
}

function run(
  tool: string,
  args: string[],
  timeoutMs: number,
  notFound: (code: number, stderr: string) => boolean,
): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    execFile(
      tool,
      args,
      { timeout: timeoutMs, encoding: "utf8", maxBuffer: 1 << 20, windowsHide: true },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout);
        const code = typeof error.code === "number" ? error.code : undefined;
        if (code !== undefined && !error.killed && notFound(code, stderr)) return resolve(undefined);
        if (error.code === "ENOENT") {
          const hint = tool === "secret-tool" ? " (install libsecret-tools)" : "";
          return reject(new Error(`${tool}${hint} is not on PATH`));
        }
        // Never the value: only what the tool said went wrong (its first line).
        const said = stderr.trim().split("\n")[0] || (error.killed ? "no answer in time" : `exit ${code}`);
        reject(new Error(`${tool} could not read the keyring: ${said}`));
      },
    );
  });
}
