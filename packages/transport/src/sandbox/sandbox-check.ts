/**
 * `sandboxUnavailableReason` as this package exports it: the sandbox code
 * loads only when asked, so importing the package stays cheap.
 */
import type { SandboxOptions } from "./sandbox-spawn.js";

/**
 * Why servers with `sandbox` cannot start on this machine — a sentence saying
 * what is missing and how to install or allow it — or undefined when they can.
 * Checks the platform, finds `bwrap` on PATH and runs it once (cached).
 */
export async function sandboxUnavailableReason(options: SandboxOptions = {}): Promise<string | undefined> {
  const { unavailableReason } = await import("./sandbox-spawn.js");
  return unavailableReason(options);
}
