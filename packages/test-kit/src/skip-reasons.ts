/**
 * Tests that need something a machine may lack (libsecret and a keyring,
 * Chromium, bubblewrap, root): why they cannot run here, said where a user
 * sees it. vitest's default reporter shows a many-file run file by file,
 * with a count of skipped tests but neither their names nor a skip note; the
 * console output of a file it always shows. So `skipNotice` prints the reason
 * once, when the file is collected, and returns a suffix for the suite's
 * name, which the verbose reporter and a single-file run show too. A new gate
 * adds its reason function here.
 */
import { createRequire } from "node:module";

/**
 * `""` where `reason` is undefined (the tests run); otherwise prints
 * `skipped: <what>: <reason>` to stderr and returns ` — skipped: <reason>`,
 * for `describe.skipIf(suffix !== "")(\`name${suffix}\`, …)`.
 */
export function skipNotice(what: string, reason: string | undefined): string {
  if (!reason) return "";
  console.warn(`skipped: ${what}: ${reason}`);
  return ` — skipped: ${reason}`;
}

/**
 * Why `@github/keytar` (the OS keyring binding) does not load here, or
 * undefined when it does. Its prebuilt binary needs libsecret at run time on
 * Linux; the binding's own error does not say so (it reports only "Failed to
 * load keytar native addon"), so libsecret is looked for directly.
 */
export function keytarUnavailableReason(): string | undefined {
  try {
    createRequire(import.meta.url)("@github/keytar");
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (process.platform === "linux" && !libsecretLoads()) {
      return "libsecret not installed (apt-get install libsecret-1-0 gnome-keyring)";
    }
    if (/Cannot find module/.test(message)) {
      return "@github/keytar not installed (npm install --include=optional)";
    }
    return `@github/keytar does not load here: ${message.split("\n")[0]}`;
  }
}

/** Whether the dynamic loader finds libsecret: a library that is not a Node addon loads, then fails to register. */
function libsecretLoads(): boolean {
  try {
    process.dlopen({ exports: {} } as NodeJS.Module, "libsecret-1.so.0");
    return true;
  } catch (error) {
    return !/cannot open shared object file/.test(error instanceof Error ? error.message : String(error));
  }
}

/** The reason the browser tests cannot run where `chromiumForTests()` found no Chromium. */
export const CHROMIUM_MISSING = "Chromium not installed (apt-get install chromium)";
