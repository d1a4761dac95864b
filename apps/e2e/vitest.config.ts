import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Each test drives a real Pi process: slow, and heavy on a 2-core machine.
    testTimeout: 120_000,
    hookTimeout: 300_000,
    fileParallelism: false,
    globalSetup: ["./test/global-setup.ts"],
  },
});
