import { execFileSync } from "node:child_process";
import { mkdir, symlink, truncate, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld, messages, names, stdio } from "../world.js";

describe("bad input", () => {
  it("gives one clear message per broken file and still loads the others, writing nothing", async () => {
    await using w = await createWorld();
    const good = path.join(w.home, ".agents", "mcp.json");
    await w.write(good, { mcpServers: { good: stdio("good") } });
    await w.write(
      path.join(w.home, ".config", "mcp", "mcp.json"),
      '{\n  "mcpServers": {\n    "a": { "command" "a" }\n  }\n}',
    );
    await mkdir(path.join(w.home, ".agents", "mcp", "mcp.json"), { recursive: true });
    const big = path.join(w.agentDir, "mcp-adapter.json");
    await writeFile(big, "");
    await truncate(big, 50 * 1024 * 1024);
    await symlink(path.join(w.project, ".mcp.json"), path.join(w.project, ".mcp.json.loop"));
    await symlink(path.join(w.project, ".mcp.json.loop"), path.join(w.project, ".mcp.json"));
    await w.write(
      path.join(w.project, ".pi", "mcp-adapter.json"),
      `\uFEFF${JSON.stringify({ mcpServers: { bom: stdio("b") } })}`,
    );

    const config = await w.load();
    expect(names(config)).toEqual(["bom", "good"]);
    expect(messages(config, "error")).toEqual([
      'mcp.json: invalid JSON at line 3 column 22: expected ":"',
      "mcp.json: expected a file but found a directory",
      `mcp-adapter.json: file is ${50 * 1024 * 1024} bytes; config files are limited to 4194304`,
      ".mcp.json: symbolic link loop",
    ]);
  });

  it("reports non-object documents and wrongly shaped sections", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), "[1, 2]");
    await w.write(path.join(w.home, ".agents", "mcp.json"), {
      mcpServers: [],
      mcp: { servers: {} },
      disabledMcpServers: "x",
      settings: 5,
      imports: "cursor",
    });
    const config = await w.load();
    expect(config.servers).toEqual([]);
    expect(messages(config, "error")).toEqual([
      "mcp.json: expected a JSON object at the top level",
      "mcp.json: mcpServers: expected an object of servers by name",
      'mcp.json: mcp: expected { "servers": [ … ] }',
      "mcp.json: disabledMcpServers: expected an array of server names",
      "mcp.json: settings: expected an object",
      "mcp.json: imports: expected an array of host names",
    ]);
  });

  it("does not hang on a FIFO where a config file should be", async () => {
    await using w = await createWorld();
    execFileSync("mkfifo", [path.join(w.project, ".mcp.json")]);
    const config = await w.load();
    expect(messages(config, "error")).toEqual([".mcp.json: expected a regular file"]);
  });

  it("reports a file that exists but cannot be read", async () => {
    await using w = await createWorld();
    // A Unix socket where the config file should be: even root cannot open it for reading.
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(path.join(w.project, ".mcp.json"), resolve));
    try {
      await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), { mcpServers: { ok: stdio("ok") } });
      const config = await w.load();
      expect(names(config)).toEqual(["ok"]);
      expect(messages(config, "error")).toEqual([".mcp.json: cannot read file (ENXIO)"]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("sandbox settings", () => {
  it("keeps a good sandbox on the definition and names what is wrong in a bad one", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: {
        boxed: { ...stdio("b"), sandbox: { network: { allow: ["api.github.com", "*.example.com"] } } },
        plain: { ...stdio("p"), sandbox: true },
        badHost: { ...stdio("h"), sandbox: { network: { allow: ["https://api.github.com/"] } } },
        typo: { ...stdio("t"), sandbox: { filesystem: { allowWrites: ["x"] } } },
        remote: { url: "https://example.com/mcp", sandbox: true },
      },
    });
    const config = await w.load();
    expect(names(config)).toEqual(["boxed", "plain"]);
    expect(config.servers.find((s) => s.name === "boxed")?.sandbox).toEqual({
      network: { allow: ["api.github.com", "*.example.com"] },
    });
    expect(messages(config, "error")).toEqual([
      expect.stringContaining(
        'mcpServers.badHost.sandbox.network.allow.0: expected a host name ("api.github.com")',
      ),
      expect.stringContaining('mcpServers.typo.sandbox.filesystem: Unrecognized key: "allowWrites"'),
      expect.stringContaining(
        "mcpServers.remote.sandbox: only a stdio server (one with a command) can be sandboxed, not http",
      ),
    ]);
  });
});
