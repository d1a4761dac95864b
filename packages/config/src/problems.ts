/** Something wrong in a config file. The rest of the config still loads. */
export interface ConfigProblem {
  /** `info` is a notice (e.g. a project server waiting for approval), not a defect. */
  severity: "error" | "warning" | "info";
  /** The file the problem is in. */
  file: string;
  /** Dotted key path inside the file, e.g. `mcpServers.github.args.0`. */
  field?: string;
  message: string;
}

/** One line a person can act on: `file: field: message`. */
export function formatProblem(problem: ConfigProblem): string {
  return [problem.file, problem.field, problem.message].filter(Boolean).join(": ");
}
