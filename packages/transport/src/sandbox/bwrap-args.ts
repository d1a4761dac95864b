/**
 * The bubblewrap command line for one sandboxed server. Order matters: bwrap
 * applies mounts in order, so the read-only root comes first, then the
 * writable places (and what stays read-only inside them), then the private temp dir (with the allow-list proxy's
 * socket in it, when there is one), and the hidden places last (so they stay
 * hidden even inside a writable folder).
 */

export interface BwrapPlan {
  /** Existing folders the server may write (bound read-write). */
  writable: readonly string[];
  /** Existing places inside those that stay read-only (bound over themselves read-only). */
  readOnly?: readonly string[];
  /** Existing folders to hide (an empty read-only tmpfs over each). */
  hiddenDirs: readonly string[];
  /** Existing files to hide (`/dev/null` bound over each). */
  hiddenFiles: readonly string[];
  /** A folder that becomes a private, empty, writable tmpfs inside the sandbox. */
  privateTmp: string;
  /** The allow-list proxy's socket, bound to `inside` (a path in the private tmp). */
  proxySocket?: { host: string; inside: string };
  cwd: string;
  command: string;
  args: readonly string[];
}

/** No network, own pid/ipc/uts namespaces; the server dies with the adapter's bwrap process. */
const ISOLATION = ["--unshare-all", "--die-with-parent"];
/** The whole file system read-only, a minimal /dev and the sandbox's own /proc. */
const BASE_MOUNTS = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"];

export function bwrapArgs(plan: BwrapPlan): string[] {
  // Its own session: it cannot push keystrokes into the adapter's terminal (TIOCSTI).
  const args = [...ISOLATION, "--new-session", ...BASE_MOUNTS];
  for (const dir of plan.writable) args.push("--bind", dir, dir);
  for (const place of plan.readOnly ?? []) args.push("--ro-bind", place, place);
  args.push("--tmpfs", plan.privateTmp);
  if (plan.proxySocket) args.push("--ro-bind", plan.proxySocket.host, plan.proxySocket.inside);
  for (const dir of plan.hiddenDirs) args.push("--tmpfs", dir, "--remount-ro", dir);
  for (const file of plan.hiddenFiles) args.push("--ro-bind", "/dev/null", file);
  args.push("--chdir", plan.cwd, "--", plan.command, ...plan.args);
  return args;
}

/** The probe that tells whether bwrap can build this sandbox here at all. */
export const BWRAP_PROBE_ARGS = [...ISOLATION, ...BASE_MOUNTS, "--", "true"];
