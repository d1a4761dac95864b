/**
 * Pi parses extension flags only after every extension has loaded, so while
 * the factory runs `pi.getFlag()` knows nothing yet. What start-up needs of a
 * flag (`--mcp-config <file>` for the startup snapshot, `--no-mcp-adapter`)
 * is read from the process's own arguments, in the two forms Pi accepts:
 * `--name value` and `--name=value`.
 */

/** The value of `--name`, if the arguments carry one. */
export function argvFlagValue(argv: readonly string[], name: string): string | undefined {
  const flag = `--${name}`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1) || undefined;
    if (arg === flag) {
      const next = argv[i + 1];
      return next !== undefined && !next.startsWith("--") ? next : undefined;
    }
  }
  return undefined;
}

/** Whether the boolean flag `--name` (or `--name=true`) is set. */
export function argvHasFlag(argv: readonly string[], name: string): boolean {
  return argv.some((arg) => arg === `--${name}` || arg === `--${name}=true`);
}
