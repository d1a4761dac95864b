/**
 * One switch to turn the adapter off for a run: the flag `--no-mcp-adapter`
 * or the environment variable `PI_MCP_ADAPTER_DISABLED=1`. Off, the
 * extension registers only its flags (so Pi accepts them) and nothing else:
 * no tools, no commands, no servers.
 */
import { argvHasFlag } from "./argv-flags.js";

/** The flag that turns the adapter off for one run. */
export const DISABLE_FLAG = "no-mcp-adapter";
/** The environment variable that turns the adapter off (any value but empty, `0` or `false`). */
export const DISABLE_ENV = "PI_MCP_ADAPTER_DISABLED";

/** Whether this run asked for the adapter to stay off (read while the extension loads). */
export function adapterSwitchedOff(
  argv: readonly string[] = process.argv,
  env: Record<string, string | undefined> = process.env,
): boolean {
  const value = env[DISABLE_ENV]?.trim().toLowerCase();
  return (
    argvHasFlag(argv, DISABLE_FLAG) ||
    (value !== undefined && value !== "" && value !== "0" && value !== "false")
  );
}
