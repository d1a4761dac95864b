import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // npm installs and real Pi runs: slow on a loaded 2-core machine.
    testTimeout: 240_000,
    hookTimeout: 300_000,
    globalSetup: ["./test/global-setup.ts"],
  },
});
