/**
 * Every config source, lowest precedence first: a later row's layer wins a
 * merge over an earlier one's. A new source is one row here plus its own
 * reader file beside this one (see the README, "Adding a config source").
 *
 * Rows are read in table order, the `first` rows before the `after-files`
 * ones (see `ConfigSource.reads`); then the loader merges the layers of all
 * rows in table order, converts and admits.
 */
import type { ConfigSource } from "./config-source.js";
import { readExplicitFile } from "./explicit-file.js";
import { readHostImports } from "./host-imports.js";
import { readInlineConfig } from "./inline-config.js";
import { readPiPackageSource } from "./pi-package-source.js";
import { readPluginPaths } from "./plugin-paths.js";
import { readProjectFiles } from "./project-files.js";
import { readUserFiles } from "./user-files.js";

/**
 * Servers other extensions registered: below everything else. They are not
 * merged with files: a name a file defines keeps the file's definition and
 * the registration is reported as overridden (`withExtensionServers`).
 */
const EXTENSION_SOURCE: ConfigSource = {
  scope: "extension",
  reads: "first",
  read: async (env) => ({ layers: [], files: [], problems: [], registrations: env.registrations }),
};

export const CONFIG_SOURCES: readonly ConfigSource[] = [
  EXTENSION_SOURCE,
  { scope: "package", reads: "after-files", read: readPiPackageSource },
  { scope: "import", reads: "after-files", read: readHostImports },
  { scope: "plugin", reads: "after-files", read: readPluginPaths },
  { scope: "user", reads: "first", read: readUserFiles },
  { scope: "project", reads: "first", read: readProjectFiles },
  { scope: "explicit", reads: "first", read: readExplicitFile },
];

/** With an inline config nothing else is read: it is a complete snapshot. */
export const INLINE_SOURCES: readonly ConfigSource[] = [
  EXTENSION_SOURCE,
  { scope: "inline", reads: "first", read: readInlineConfig },
];
