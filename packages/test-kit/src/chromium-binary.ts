/**
 * The headless Chromium the MCP Apps browser tests drive (Debian's
 * `chromium`; browsers cannot be downloaded here): its path and launch
 * arguments, or undefined where it is missing — except on CI (`CI=true`),
 * where a missing Chromium is an error, not a skip.
 */
import { execFileSync } from "node:child_process";

export interface ChromiumBinary {
  /** Options for playwright-core's `chromium.launch`: the binary, headless, and `--no-sandbox` as root
   * (CI containers), where Chromium's own sandbox cannot start; an app's iframe sandbox is unaffected. */
  launch: { executablePath: string; headless: true; args: string[] };
}

export function chromiumForTests(env: NodeJS.ProcessEnv = process.env): ChromiumBinary | undefined {
  for (const name of ["chromium", "chromium-browser"]) {
    try {
      const found = execFileSync("which", [name], { encoding: "utf8" }).trim();
      if (found) {
        const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
        return { launch: { executablePath: found, headless: true, args } };
      }
    } catch {
      // not on PATH
    }
  }
  if (env.CI === "true")
    throw new Error("CI needs Debian's chromium for the MCP Apps browser tests (.ci/run installs it)");
  return undefined;
}
