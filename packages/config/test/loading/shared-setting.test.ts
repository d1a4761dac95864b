/** `settings.shareServers` and a server's `shared`: kept on stdio definitions, a warning (not a skip) elsewhere. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld, messages, names, stdio } from "../world.js";

describe("shared servers settings", () => {
  it("keeps shareServers and a stdio server's shared, and warns for shared on a remote server", async () => {
    await using w = await createWorld();
    const file = path.join(w.project, ".pi", "mcp-adapter.json");
    await w.write(file, {
      settings: { shareServers: true },
      mcpServers: {
        local: { ...stdio("l"), shared: false },
        plain: stdio("p"),
        remote: { url: "https://example.com/mcp", shared: true },
        typo: { ...stdio("t"), shared: "yes" },
      },
    });
    const config = await w.load();
    expect(config.settings.shareServers).toBe(true);
    expect(names(config)).toEqual(["local", "plain", "remote"]);
    expect(config.servers.find((s) => s.name === "local")?.shared).toBe(false);
    expect(config.servers.find((s) => s.name === "plain")?.shared).toBeUndefined();
    // The remote server still runs, on its own connection, and the warning says which and where.
    expect(config.servers.find((s) => s.name === "remote")?.shared).toBeUndefined();
    expect(messages(config, "warning")).toEqual([
      'mcp-adapter.json: mcpServers.remote.shared: server "remote": only a stdio server (one with a command) can be shared, not http; it runs unshared',
    ]);
    expect(messages(config, "error")).toEqual([
      "mcp-adapter.json: mcpServers.typo.shared: expected true or false",
    ]);
  });

  it("reports a shareServers that is not a boolean and drops only that key", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      settings: { shareServers: "on", idleTimeout: 3 },
    });
    const config = await w.load();
    expect(config.settings).toEqual({ idleTimeout: 3 });
    expect(messages(config, "error")).toEqual([
      "mcp-adapter.json: settings.shareServers: expected true or false",
    ]);
  });
});
