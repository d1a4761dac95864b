/**
 * Whether bubblewrap can build a sandbox on this machine, checked once per
 * bwrap path and process: the binary is looked up on PATH and run once with
 * the namespaces and mounts a server's sandbox uses. When it cannot, the
 * error says what is missing and how to get it, and no server starts.
 */
import { execFile } from "node:child_process";
import { access, constants } from "node:fs/promises";
import path from "node:path";
import { BWRAP_PROBE_ARGS } from "./bwrap-args.js";

const INSTALL_HINT =
  "install it (Debian/Ubuntu: sudo apt install bubblewrap; Fedora: sudo dnf install bubblewrap; Arch: sudo pacman -S bubblewrap)";

const NAMESPACE_HINT =
  "unprivileged user namespaces may be disabled: allow them (Ubuntu 23.10+: an AppArmor profile for bwrap, or sysctl kernel.apparmor_restrict_unprivileged_userns=0; Debian before 11: sysctl kernel.unprivileged_userns_clone=1); in a container, run it with user namespaces allowed (e.g. Docker's --security-opt seccomp=unconfined)";

/** Why a sandbox cannot be set up here, as one sentence for the user. */
export class SandboxUnavailable extends Error {
  override name = "SandboxUnavailable";
}

const verdicts = new Map<string, Promise<void>>();

/** Finds `bwrap` on PATH (or takes `configured`); rejects with `SandboxUnavailable` when absent. */
export async function findBwrap(pathVariable: string | undefined, configured?: string): Promise<string> {
  const candidates = configured
    ? [configured]
    : (pathVariable ?? "")
        .split(path.delimiter)
        .filter(Boolean)
        .map((dir) => path.join(dir, "bwrap"));
  for (const candidate of candidates) {
    if (
      await access(candidate, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  }
  throw new SandboxUnavailable(`bubblewrap (bwrap) is not installed: ${INSTALL_HINT}`);
}

/** Resolves when `bwrap` can create a sandbox here; the verdict is kept for the process's life. */
export function checkBwrap(bwrap: string): Promise<void> {
  let verdict = verdicts.get(bwrap);
  if (!verdict) {
    verdict = probe(bwrap);
    verdicts.set(bwrap, verdict);
  }
  return verdict;
}

function probe(bwrap: string): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(bwrap, BWRAP_PROBE_ARGS, { timeout: 10_000 }, (error, _stdout, stderr) => {
      if (!error) return resolve();
      const said = stderr.trim().split("\n").slice(-1)[0] || error.message;
      reject(new SandboxUnavailable(`bubblewrap cannot create a sandbox here (${said}): ${NAMESPACE_HINT}`));
    });
  });
}
