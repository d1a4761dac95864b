/**
 * Where other MCP hosts keep their server lists, per OS, in user and project
 * scope. Paths only. Checked against each host's public documentation.
 */
import path from "node:path";
import type { ConfigEnvironment } from "../files/config-sources.js";

export const HOST_IDS = [
  "cursor",
  "claude-code",
  "claude-desktop",
  "opencode",
  "vscode",
  "windsurf",
  "codex",
] as const;
export type HostId = (typeof HOST_IDS)[number];

export type HostFormat = "mcpServers" | "claude-code" | "opencode" | "vscode" | "codex";

export interface HostConfigFile {
  host: HostId;
  file: string;
  /** `project` files live in the project tree and follow project trust. */
  scope: "user" | "project";
  format: HostFormat;
  syntax: "json" | "jsonc" | "toml";
}

export function isHostId(value: string): value is HostId {
  return (HOST_IDS as readonly string[]).includes(value);
}

/** Candidate files of one host; most do not exist on a given machine. */
export function hostConfigFiles(host: HostId, environment: ConfigEnvironment, cwd: string): HostConfigFile[] {
  const { home, platform, env } = environment;
  const xdgConfig = env.XDG_CONFIG_HOME || path.join(home, ".config");
  const appData = env.APPDATA || path.join(home, "AppData", "Roaming");
  const appSupport = path.join(home, "Library", "Application Support");
  /** The per-user application config directory of desktop apps on this OS. */
  const appConfig = platform === "darwin" ? appSupport : platform === "win32" ? appData : xdgConfig;
  const user = (file: string, format: HostFormat, syntax: HostConfigFile["syntax"]): HostConfigFile => ({
    host,
    file,
    scope: "user",
    format,
    syntax,
  });
  const project = (file: string, format: HostFormat, syntax: HostConfigFile["syntax"]): HostConfigFile => ({
    host,
    file: path.join(cwd, file),
    scope: "project",
    format,
    syntax,
  });
  switch (host) {
    case "cursor":
      return [
        user(path.join(home, ".cursor", "mcp.json"), "mcpServers", "jsonc"),
        project(path.join(".cursor", "mcp.json"), "mcpServers", "jsonc"),
      ];
    case "claude-code":
      // User-scope and per-project ("local") servers both live in ~/.claude.json;
      // the project-scope file is the shared .mcp.json, read as a source already.
      return [user(path.join(home, ".claude.json"), "claude-code", "json")];
    case "claude-desktop":
      return [user(path.join(appConfig, "Claude", "claude_desktop_config.json"), "mcpServers", "json")];
    case "opencode":
      return [
        user(path.join(xdgConfig, "opencode", "opencode.json"), "opencode", "jsonc"),
        user(path.join(xdgConfig, "opencode", "opencode.jsonc"), "opencode", "jsonc"),
        project("opencode.json", "opencode", "jsonc"),
        project("opencode.jsonc", "opencode", "jsonc"),
        project(path.join(".opencode", "opencode.json"), "opencode", "jsonc"),
        project(path.join(".opencode", "opencode.jsonc"), "opencode", "jsonc"),
      ];
    case "vscode":
      return [
        user(path.join(appConfig, "Code", "User", "mcp.json"), "vscode", "jsonc"),
        project(path.join(".vscode", "mcp.json"), "vscode", "jsonc"),
      ];
    case "windsurf":
      return [user(path.join(home, ".codeium", "windsurf", "mcp_config.json"), "mcpServers", "jsonc")];
    case "codex": {
      const codexHome = env.CODEX_HOME || path.join(home, ".codex");
      return [
        user(path.join(codexHome, "config.toml"), "codex", "toml"),
        project(path.join(".codex", "config.toml"), "codex", "toml"),
      ];
    }
  }
}
