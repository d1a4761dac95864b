/**
 * `disable <server>` / `enable <server>`: records only the `disabled` field in
 * the project's `.pi/mcp-adapter.json`, never touching the file that defined
 * the server and never copying its credentials. The write is atomic
 * (tmp + rename) under a `<file>.lock`, so concurrent writers neither tear the
 * file nor lose each other's changes.
 */
import path from "node:path";
import { withFileLock, writeFileAtomic } from "@pi-mcp-adapter/core";
import { isPlainObject } from "./config-layer.js";
import { PROJECT_OVERRIDE_FILE } from "./config-sources.js";
import { ConfigError } from "./errors.js";
import { formatProblem } from "./problems.js";
import { readJsonFile } from "./read-json-file.js";

export interface SetServerDisabledOptions {
  /** Project directory. */
  cwd: string;
  server: string;
  disabled: boolean;
  /** The host's trust answer; `false` refuses to change project files. */
  trusted?: boolean;
}

/** Returns the file written. Throws `ConfigError` when the project is untrusted or the file is unusable. */
export async function setServerDisabled(options: SetServerDisabledOptions): Promise<string> {
  const file = path.join(options.cwd, PROJECT_OVERRIDE_FILE);
  if (options.trusted === false) {
    throw new ConfigError("untrusted_project", `Not changing ${file}: the project is not trusted`);
  }
  if (!options.server.trim() || options.server === "__proto__") {
    throw new ConfigError("write_failed", `Not a usable server name: "${options.server}"`);
  }
  try {
    await withFileLock(file, async () => {
      const read = await readJsonFile(file);
      if (read.kind === "error") {
        throw new ConfigError(
          "write_failed",
          `Not changing ${formatProblem(read.problem)} (fix the file first)`,
        );
      }
      const document: Record<string, unknown> =
        read.kind === "ok" ? (read.value as Record<string, unknown>) : {};
      if (!isPlainObject(document)) {
        throw new ConfigError(
          "write_failed",
          `Not changing ${file}: expected a JSON object at the top level`,
        );
      }
      const servers = document.mcpServers === undefined ? {} : document.mcpServers;
      if (!isPlainObject(servers)) {
        throw new ConfigError("write_failed", `Not changing ${file}: mcpServers is not an object`);
      }
      const current = servers[options.server];
      servers[options.server] = { ...(isPlainObject(current) ? current : {}), disabled: options.disabled };
      document.mcpServers = servers;
      if (!options.disabled && Array.isArray(document.disabledMcpServers)) {
        document.disabledMcpServers = document.disabledMcpServers.filter((name) => name !== options.server);
      }
      try {
        await writeFileAtomic(file, `${JSON.stringify(document, null, 2)}\n`);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code ?? "error";
        throw new ConfigError("write_failed", `Could not write ${file} (${code})`, { cause: error });
      }
    });
  } catch (error) {
    if (error instanceof ConfigError) throw error;
    throw new ConfigError("write_failed", `Could not update ${file}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return file;
}
