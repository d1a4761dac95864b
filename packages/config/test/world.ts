/** A throwaway file tree with a home, a Pi agent dir and a project, for loader tests. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { type LoadConfigOptions, loadConfig, type ResolvedConfig } from "../src/index.js";

export interface World extends AsyncDisposable {
  dir: TempDir;
  home: string;
  agentDir: string;
  project: string;
  /** Writes a file (objects as JSON) and returns its path. */
  write(file: string, content: unknown): Promise<string>;
  load(options?: Partial<LoadConfigOptions>): Promise<ResolvedConfig>;
}

export async function createWorld(): Promise<World> {
  const dir = await createTempDir("pi-mcp-config-");
  const home = dir.join("home");
  const agentDir = dir.join("home", ".pi", "agent");
  const project = dir.join("work", "project");
  await mkdir(project, { recursive: true });
  await mkdir(agentDir, { recursive: true });
  return {
    dir,
    home,
    agentDir,
    project,
    async write(file, content) {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, typeof content === "string" ? content : JSON.stringify(content, null, 2));
      return file;
    },
    load(options = {}) {
      return loadConfig({
        cwd: project,
        trust: "admit-all",
        ...options,
        environment: { home, agentDir, env: {}, platform: "linux", ...options.environment },
      });
    },
    [Symbol.asyncDispose]: () => dir.remove(),
  };
}

export function stdio(command: string, extra: Record<string, unknown> = {}) {
  return { command, ...extra };
}

export function names(config: ResolvedConfig): string[] {
  return config.servers.map((s) => s.name).sort();
}

export function byName(config: ResolvedConfig, name: string) {
  const server = config.servers.find((s) => s.name === name);
  if (!server) throw new Error(`no server ${name} in ${names(config).join(", ")}`);
  return server;
}

export function messages(config: ResolvedConfig, severity?: "error" | "warning" | "info"): string[] {
  return config.problems
    .filter((p) => !severity || p.severity === severity)
    .map((p) => [path.basename(p.file), p.field, p.message].filter(Boolean).join(": "));
}
