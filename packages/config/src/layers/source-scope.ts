/**
 * Where a config layer came from. Trust rules and merge order depend on it:
 * `project` layers need the host's trust and a per-definition approval;
 * `import` layers (other hosts' files) sit below every other source but
 * `package` ones (servers shipped in Pi packages listed in user settings);
 * `extension` servers (registered by other Pi extensions) never come from a file.
 */
export type SourceScope =
  | "package"
  | "import"
  | "plugin"
  | "user"
  | "project"
  | "explicit"
  | "inline"
  | "extension";

/** Scopes whose servers must pass project trust and approval. */
export function isProjectScope(scope: SourceScope): boolean {
  return scope === "project";
}
