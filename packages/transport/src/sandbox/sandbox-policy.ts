/**
 * What a sandboxed stdio server may touch, as absolute paths: the places it
 * may write (its `cwd` plus `filesystem.allowWrite`) and the places it may not
 * read (the credential places every sandbox hides plus `filesystem.denyRead`).
 * Pure: no file system access; `sandbox-spawn.ts` checks what exists.
 */
import path from "node:path";
import type { SandboxSetting } from "@pi-mcp-adapter/core";

/** Credential places under the home directory that no sandboxed server reads. */
export const HOME_CREDENTIAL_PLACES = [".ssh", ".aws", ".gnupg", ".config/gcloud"] as const;

/**
 * Files and folders of the Pi agent dir that hold credentials, tokens, or
 * caches and configs that may carry them (Pi's `auth.json`, this adapter's
 * OAuth store, config files with bearer tokens, the metadata and npx caches,
 * traces). Settings, extensions and packages stay readable: servers run from there.
 */
export const AGENT_DIR_CREDENTIAL_PLACES = [
  "auth.json",
  "mcp.json",
  "mcp-adapter.json",
  "mcp-adapter",
  "mcp-adapter-approvals.json",
  "mcp-cache.json",
  "mcp-npx-cache.json",
  "mcp-output-shapes.json",
  "mcp-traces",
] as const;

/**
 * Local services reached through Unix sockets, which a network namespace does
 * not cut off: the user's runtime dir (session bus and through it the
 * keyring, gpg and ssh agents, Wayland), the ssh agent and session bus named
 * in the environment, the X server, the system bus and container engines.
 */
export function localServicePlaces(env: NodeJS.ProcessEnv, uid: number): string[] {
  const places = [
    env.XDG_RUNTIME_DIR || `/run/user/${uid}`,
    "/tmp/.X11-unix",
    "/run/dbus/system_bus_socket",
    "/run/docker.sock",
    "/var/run/docker.sock",
    "/run/podman/podman.sock",
    "/run/containerd/containerd.sock",
  ];
  if (env.SSH_AUTH_SOCK) places.push(env.SSH_AUTH_SOCK);
  const bus = /(?:^|;)unix:(?:[^;]*,)?path=([^,;]+)/.exec(env.DBUS_SESSION_BUS_ADDRESS ?? "")?.[1];
  if (bus) places.push(bus);
  return places;
}

/**
 * Places inside a writable folder that stay read-only, because writing them
 * would let the server run code outside the sandbox later: git hooks and
 * config, Pi's project folder (extensions, adapter config), MCP and editor
 * configs that start servers or tasks, direnv files.
 */
export const PROTECTED_INSIDE_WRITABLE = [
  ".git/hooks",
  ".git/config",
  ".pi",
  ".mcp.json",
  ".vscode",
  ".cursor",
  ".claude",
  ".envrc",
] as const;

export interface SandboxPlaces {
  /** The server's working directory (always writable). */
  cwd: string;
  home: string;
  /** Pi's agent dir (`PI_CODING_AGENT_DIR`, default `~/.pi/agent`). */
  agentDir: string;
  /** More unreadable places from the host (absolute). */
  denyRead?: readonly string[];
}

export interface SandboxPolicy {
  writable: string[];
  /** Inside writable folders, read-only again (where they exist). */
  readOnly: string[];
  denyRead: string[];
}

/** The agent dir Pi uses for this environment. */
export function piAgentDir(env: NodeJS.ProcessEnv, home: string): string {
  const configured = env.PI_CODING_AGENT_DIR;
  return configured ? expandPath(configured, home, home) : path.join(home, ".pi", "agent");
}

/** `~/x` → home-relative, relative → `base`-relative, absolute as is; always normalised. */
export function expandPath(value: string, home: string, base: string): string {
  if (value === "~") return home;
  if (value.startsWith("~/")) return path.join(home, value.slice(2));
  return path.resolve(base, value);
}

export function sandboxPolicy(setting: SandboxSetting, places: SandboxPlaces): SandboxPolicy {
  const rules = typeof setting === "object" ? setting : {};
  const resolve = (value: string) => expandPath(value, places.home, places.cwd);
  const writable = [places.cwd, ...(rules.filesystem?.allowWrite ?? []).map(resolve)];
  const denyRead = [
    ...HOME_CREDENTIAL_PLACES.map((place) => path.join(places.home, place)),
    ...AGENT_DIR_CREDENTIAL_PLACES.map((place) => path.join(places.agentDir, place)),
    ...(places.denyRead ?? []),
    ...(rules.filesystem?.denyRead ?? []).map(resolve),
  ];
  const readOnly = writable.flatMap((dir) => PROTECTED_INSIDE_WRITABLE.map((place) => path.join(dir, place)));
  return { writable: unique(writable), readOnly: unique(readOnly), denyRead: unique(denyRead) };
}

function unique(paths: string[]): string[] {
  return [...new Set(paths)];
}
