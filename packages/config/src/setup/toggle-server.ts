/**
 * `disable <server>` / `enable <server>`: records only the `disabled` field in
 * the project's `.pi/mcp-adapter.json`, never touching the file that defined
 * the server and never copying its credentials. The write is atomic
 * (tmp + rename) under a `<file>.lock`, so concurrent writers neither tear the
 * file nor lose each other's changes.
 */
import path from "node:path";
import { ConfigError } from "../errors.js";
import { PROJECT_OVERRIDE_FILE } from "../files/config-sources.js";
import { isPlainObject } from "../layers/config-layer.js";
import { editConfigFile, objectAt } from "./edit-config-file.js";

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
  await editConfigFile(file, (document) => {
    const servers = objectAt(document, "mcpServers", file);
    const current = servers[options.server];
    servers[options.server] = { ...(isPlainObject(current) ? current : {}), disabled: options.disabled };
    if (!options.disabled && Array.isArray(document.disabledMcpServers)) {
      document.disabledMcpServers = document.disabledMcpServers.filter((name) => name !== options.server);
    }
    return true;
  });
  return file;
}
