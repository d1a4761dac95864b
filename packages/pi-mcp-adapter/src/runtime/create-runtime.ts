import { createRequire } from "node:module";
import { loadConfig } from "@pi-mcp-adapter/config";
import { AdapterRuntime } from "./adapter-runtime.js";

export interface RuntimeSource {
  cwd: string;
  /** An explicit config file instead of the project's `.mcp.json`. */
  configPath?: string;
}

/** Loads config and builds a runtime; nothing connects until first use. */
export async function createRuntime(source: RuntimeSource): Promise<AdapterRuntime> {
  const config = await loadConfig(source);
  return new AdapterRuntime({
    servers: config.servers,
    problems: config.problems,
    cwd: source.cwd,
    client: { name: "pi-mcp-adapter", version: PACKAGE_VERSION },
  });
}

/** This package's version, reported to servers as the client version. */
export const PACKAGE_VERSION: string = (
  createRequire(import.meta.url)("../../package.json") as { version: string }
).version;
