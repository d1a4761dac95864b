import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld, messages } from "../world.js";

describe("settings.pinTools", () => {
  it("is read from user-level files, and a project file cannot switch tool pinning off", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { settings: { pinTools: "warn" } });
    await w.write(path.join(w.project, ".mcp.json"), { settings: { pinTools: false } });
    const config = await w.load({ trust: { trusted: true } });
    expect(config.settings.pinTools).toBe("warn");
    expect(messages(config, "warning")).toContain(
      ".mcp.json: settings.pinTools: this setting is honoured only in user-level config files, ignored here",
    );
  });

  it("names a bad value and where it was", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { settings: { pinTools: "off" } });
    const config = await w.load({ trust: { trusted: true } });
    expect(config.settings.pinTools).toBeUndefined();
    expect(messages(config, "error").join("\n")).toContain(
      'settings.pinTools: expected true, false, "enforce" or "warn"',
    );
  });
});
