/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/daemon` (src/index.ts). */
const ROOT = [
  "DaemonError",
  "DaemonErrorCode",
  "DaemonPaths",
  "DaemonServerStatus",
  "DaemonStatus",
  "OpenSharedOptions",
  "SHARED_SERVER_ENV_NAMES",
  "SharedAttachment",
  "SharedChannelEnd",
  "SharedServerChannel",
  "SharedSpawnSpec",
  "daemonEntryPath",
  "daemonPaths",
  "daemonStatus",
  "openSharedServer",
  "sharedServerEnv",
  "sharingSupport",
  "stopDaemon",
];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/daemon exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });
});
