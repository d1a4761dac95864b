export {
  type LoadConfigOptions,
  loadConfig,
  PROJECT_CONFIG_FILE,
  parseMcpServers,
  type ResolvedConfig,
} from "./load-config.js";
export { type ConfigProblem, formatProblem } from "./problems.js";
export { MAX_CONFIG_BYTES } from "./read-json-file.js";
export { type ServerEntry, ServerEntrySchema } from "./server-entry.js";
