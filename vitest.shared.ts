/**
 * The vitest settings every package shares (each package's vitest.config.ts
 * re-exports this). Tests start real servers and processes, and CI runs
 * packages side by side on 2 cores: timeouts leave room for that load, while
 * speed itself is measured in apps/bench, never asserted in tests.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for an event; on a loaded machine it may take far longer than the 1 s default.
    expect: { poll: { timeout: 15_000 } },
  },
});
