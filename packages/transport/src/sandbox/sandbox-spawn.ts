/**
 * Turns the command line of a stdio server that asks for `sandbox` into a
 * bubblewrap command line (Linux), after checking everything the sandbox
 * needs. Fails closed: when the sandbox cannot be set up the server is not
 * started, and the `TransportError` says what is missing and how to get it.
 */
import { lstat, mkdir, realpath } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import path from "node:path";
import type { SandboxSetting } from "@pi-mcp-adapter/core";
import { TransportError } from "../errors.js";
import { isNpx } from "../stdio/npx-resolver.js";
import { bwrapArgs } from "./bwrap-args.js";
import { checkBwrap, findBwrap, SandboxUnavailable } from "./bwrap-availability.js";
import { allowListProxy } from "./network-proxy.js";
import { bridgedCommand, proxyEnv } from "./proxy-bridge.js";
import { localServicePlaces, piAgentDir, sandboxPolicy } from "./sandbox-policy.js";

/** How sandboxes are built; every field has a working default. */
export interface SandboxOptions {
  /** The bwrap binary. Default: `bwrap` on the server's PATH. */
  bwrapPath?: string;
  /** More places (absolute) no sandboxed server may read, e.g. a host's own credential files. */
  denyRead?: string[];
  /** Default: `process.platform`. */
  platform?: NodeJS.Platform;
}

/** What gets spawned for a stdio server. */
export interface SpawnSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: "macOS", win32: "Windows" };

/** The spec that runs `spec` inside the sandbox `setting` asks for; throws `sandbox_unavailable`. */
export async function sandboxSpawnSpec(
  server: string,
  setting: SandboxSetting,
  spec: SpawnSpec,
  options: SandboxOptions = {},
): Promise<SpawnSpec> {
  const refuse = (reason: string) =>
    new TransportError(
      "sandbox_unavailable",
      server,
      `Server "${server}" asks for a sandbox, but ${reason}. The server was not started (set "sandbox": false to run it without one).`,
    );
  const unavailable = await unavailableReason(options, spec.env.PATH);
  if (unavailable) throw refuse(unavailable);
  if (isNpx(spec.command)) {
    const packages = spec.args.filter((arg) => !arg.startsWith("-")).slice(0, 1);
    throw refuse(
      `its npx package is not in npm's cache and a sandbox has no network to fetch it: fetch it once with \`npx -y -p ${packages[0] ?? "<package>"} true\`, then start the server again`,
    );
  }
  const bwrap = await findBwrap(spec.env.PATH, options.bwrapPath);
  const home = spec.env.HOME || homedir();
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const policy = sandboxPolicy(setting, {
    cwd,
    home,
    agentDir: piAgentDir(spec.env, home),
    denyRead: options.denyRead,
  });
  const { privateTmp, socketDir } = await sandboxFolders();
  const writable = await existingPlaces(policy.writable, (place) =>
    refuse(`${place === cwd ? "its cwd" : "sandbox.filesystem.allowWrite"} "${place}" does not exist`),
  );
  const readOnly = await existingPlaces(policy.readOnly);
  const own = [...writable, privateTmp, socketDir];
  const { hiddenDirs, hiddenFiles } = await hiddenPlaces(
    policy.denyRead,
    // A service place that holds the server's own folders stays (hiding it would hide them too).
    localServicePlaces(spec.env, process.getuid?.() ?? 0).filter(
      (place) => !own.some((inner) => isInside(inner, place)),
    ),
  );
  // No sandbox lists or reaches another's proxy socket.
  hiddenDirs.push(socketDir);
  let env: Record<string, string> = { ...spec.env, TMPDIR: privateTmp, TMP: privateTmp, TEMP: privateTmp };
  let inner = { command: spec.command, args: spec.args };
  let proxySocket: { host: string; inside: string } | undefined;
  const allow = typeof setting === "object" ? (setting.network?.allow ?? []) : [];
  if (allow.length) {
    proxySocket = {
      host: await allowListProxy(allow, socketDir),
      inside: path.join(privateTmp, "proxy.sock"),
    };
    inner = bridgedCommand(process.execPath, proxySocket.inside, spec.command, spec.args);
    env = { ...env, ...proxyEnv() };
  }
  return {
    command: bwrap,
    args: bwrapArgs({ writable, readOnly, hiddenDirs, hiddenFiles, privateTmp, proxySocket, cwd, ...inner }),
    env,
    cwd,
  };
}

/** Why no sandbox can be built here (what to install or allow), or undefined when one can. */
export async function unavailableReason(
  options: SandboxOptions = {},
  pathVariable = process.env.PATH,
): Promise<string | undefined> {
  const platform = options.platform ?? process.platform;
  if (platform !== "linux") {
    return `the sandbox works on Linux only for now (this is ${PLATFORM_NAMES[platform] ?? platform})`;
  }
  try {
    await checkBwrap(await findBwrap(pathVariable, options.bwrapPath));
    return undefined;
  } catch (error) {
    if (error instanceof SandboxUnavailable) return error.message;
    throw error;
  }
}

/**
 * Two folders per user, made once: an empty one each sandbox mounts its own
 * tmpfs over (the server's private temp dir, gone with its sandbox, nothing
 * left on the host) and the one the allow-list proxies' sockets live in.
 * Each must be ours and a real folder (not a link another user planted).
 */
async function sandboxFolders(): Promise<{ privateTmp: string; socketDir: string }> {
  const uid = process.getuid?.() ?? 0;
  const base = path.join(tmpdir(), `pi-mcp-sandbox-${uid}`);
  return { privateTmp: await ownFolder(base, uid), socketDir: await ownFolder(`${base}-net`, uid) };
}

async function ownFolder(dir: string, uid: number): Promise<string> {
  await mkdir(dir, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== "EEXIST") throw error;
  });
  const info = await lstat(dir);
  if (!info.isDirectory() || info.uid !== uid || (info.mode & 0o077) !== 0) {
    throw new Error(`${dir} is not a private folder of this user; remove it and try again`);
  }
  return dir;
}

/** The real paths of the places that exist; a missing one is skipped, or thrown as `missing(place)`. */
async function existingPlaces(
  places: readonly string[],
  missing?: (place: string) => Error,
): Promise<string[]> {
  const found: string[] = [];
  for (const place of places) {
    const real = await realpath(place).catch(() => undefined);
    if (real) found.push(real);
    else if (missing) throw missing(place);
  }
  return found;
}

/** The places to hide that exist, split into folders (an empty tmpfs over them) and files. */
async function hiddenPlaces(...lists: readonly string[][]) {
  const hiddenDirs: string[] = [];
  const hiddenFiles: string[] = [];
  for (const real of await existingPlaces(lists.flat())) {
    ((await lstat(real)).isDirectory() ? hiddenDirs : hiddenFiles).push(real);
  }
  return { hiddenDirs, hiddenFiles };
}

function isInside(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative));
}
