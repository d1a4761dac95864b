/**
 * Reads the npx command lines people put in MCP configs. Anything beyond the
 * common shapes returns undefined, and the server then runs through npx as written.
 */
export interface NpxInvocation {
  /** The package to run, e.g. `chrome-devtools-mcp@1.6.0`. */
  packageSpec: string;
  /** The bin to run when given with `-p`; else the package's default bin. */
  bin?: string;
  /** Arguments for the server. */
  rest: string[];
}

export function parseNpxArgs(args: string[]): NpxInvocation | undefined {
  const packages: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-y" || arg === "--yes") continue;
    if (arg === "-p" || arg === "--package") {
      const value = args[++i];
      if (!value) return undefined;
      packages.push(value);
      continue;
    }
    if (arg.startsWith("--package=")) {
      packages.push(arg.slice("--package=".length));
      continue;
    }
    if (arg === "--") {
      i++;
      break;
    }
    if (arg.startsWith("-")) return undefined; // --registry, -c, --node-options …: keep npx
    break;
  }
  const first = args[i];
  if (!first || packages.length > 1) return undefined;
  if (packages.length === 1) return { packageSpec: packages[0]!, bin: first, rest: args.slice(i + 1) };
  return { packageSpec: first, rest: args.slice(i + 1) };
}
