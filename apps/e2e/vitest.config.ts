import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each test drives a real Pi process: slow, and heavy on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    // Two files at once: most of a file's time is spent waiting on Pi and its servers, not computing.
    maxWorkers: 2,
    // expect.poll waits for an event; on a loaded machine it may take far longer than the 1 s default.
    expect: { poll: { timeout: 30_000 } },
    globalSetup: ["./test/global-setup.ts"],
  },
});
