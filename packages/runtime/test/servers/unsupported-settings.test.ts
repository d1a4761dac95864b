import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { SettingsSchema } from "@pi-mcp-adapter/config/schemas";
import { createTempDir, stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime, runProxyRequest } from "../../src/index.js";
import { UNSUPPORTED_SETTINGS } from "../../src/startup/unsupported-settings.js";

/** Settings the runtime, config or OAuth wiring act on (checked against the code when this list was written). */
const SUPPORTED = [
  "toolPrefix",
  "idleTimeout",
  "failureBackoffMs",
  "keepAliveRelistMinutes",
  "shareServers",
  "requestTimeoutMs",
  "maxTotalTimeoutMs",
  "tasks",
  "taskTimeoutMs",
  "hostConfigDiscovery",
  "agentPluginPaths",
  "approveTools",
  "pinTools",
  "oauthDir",
  "oauthCredentialStore",
  "oauthClientName",
  "autoAuth",
  "outputGuard",
  "spillMaxAgeDays",
  "toonEncode",
  "projectServers",
  "ancestorConfigRoots",
  "scriptMode",
  "trace",
  "captureStats",
  "directTools",
  "freezeDirectTools",
  "deferWithMissingMetadata",
  "strictDirectToolArguments",
  "directToolResultDetails",
  "disableProxyTool",
  "namespaceProxyTools",
  "elicitation",
  "sampling",
  "samplingAutoApprove",
  // the Pi shell's panel, footer and result rows
  "showStatusIcon",
  "mcpFooterStatus",
  "toolResultRendering",
  "collapsedResultLines",
  "notifyOnStartupConnect",
];

afterEach(() => {
  vi.unstubAllEnvs();
});

describe("settings that are recognised but not supported yet", () => {
  it("every key the settings schema accepts is either supported or listed as not supported yet", () => {
    const keys = Object.keys(SettingsSchema.shape).sort();
    expect([...SUPPORTED, ...UNSUPPORTED_SETTINGS].sort()).toEqual(keys);
  });

  it("supported keys are no warning in mcp({}) status (the footer and rendering settings included)", async () => {
    await using dir = await createTempDir();
    vi.stubEnv("HOME", dir.path);
    vi.stubEnv("PI_CODING_AGENT_DIR", dir.join("agent"));
    const project = dir.join("project");
    await mkdir(project);
    await writeFile(
      path.join(project, ".mcp.json"),
      JSON.stringify({
        mcpServers: {
          demo: { command: process.execPath, args: [stdioFixtureServerPath], directTools: "search" },
          plain: { command: process.execPath, args: [stdioFixtureServerPath] },
        },
        settings: {
          collapsedResultLines: 2,
          showStatusIcon: false,
          mcpFooterStatus: "compact",
          toolResultRendering: "boxed",
          notifyOnStartupConnect: false,
          sampling: true,
          disableProxyTool: false,
          toolPrefix: "short",
        },
      }),
    );
    const runtime = await createRuntime({ cwd: project, metadataCacheFile: false, npxCacheFile: false });
    expect(runtime.servers.problems).toEqual([]);
    const status = await runProxyRequest(runtime, {});
    const text = status.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
    expect(text).not.toContain("not supported yet");
    expect(text).not.toContain("collapsedResultLines");
    expect(text).not.toContain("toolPrefix");
    expect(text).not.toContain("directTools");
    await runtime.shutdown();
  });
});
