import { spawn } from "node:child_process";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { McpAdapterError } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/index.js";
import { setServerDisabled } from "../../src/setup.js";
import { byName, createWorld } from "../world.js";

describe("setServerDisabled", () => {
  it("writes only the disabled field into .pi/mcp-adapter.json, leaving the defining file alone", async () => {
    await using w = await createWorld();
    const shared = await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: {
        gh: { url: "https://gh.example/mcp", headers: { Authorization: "Bearer secret-token" } },
      },
    });
    const before = await readFile(shared, "utf8");
    const file = await setServerDisabled({ cwd: w.project, server: "gh", disabled: true });
    expect(file).toBe(path.join(w.project, ".pi", "mcp-adapter.json"));
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({ mcpServers: { gh: { disabled: true } } });
    expect(await readFile(shared, "utf8")).toBe(before);
    expect(await readFile(file, "utf8")).not.toContain("secret-token");
    expect(byName(await w.load(), "gh").disabled).toBe(true);

    await setServerDisabled({ cwd: w.project, server: "gh", disabled: false });
    expect(byName(await w.load(), "gh").disabled).toBe(false);
  });

  it("keeps everything else in the override file, and clears the name from its disabledMcpServers on enable", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      settings: { toolPrefix: "short" },
      disabledMcpServers: ["a", "b"],
      mcpServers: { a: { command: "a", args: ["1"] } },
    });
    await setServerDisabled({ cwd: w.project, server: "a", disabled: false });
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual({
      settings: { toolPrefix: "short" },
      disabledMcpServers: ["b"],
      mcpServers: { a: { command: "a", args: ["1"], disabled: false } },
    });
  });

  it("refuses untrusted projects and broken files without writing anything", async () => {
    await using w = await createWorld();
    await expect(
      setServerDisabled({ cwd: w.project, server: "a", disabled: true, trusted: false }),
    ).rejects.toThrow(/the project is not trusted/);
    const refused = await setServerDisabled({
      cwd: w.project,
      server: "a",
      disabled: true,
      trusted: false,
    }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(McpAdapterError);
    expect(refused).toBeInstanceOf(ConfigError);
    expect(refused).toMatchObject({ name: "ConfigError", code: "untrusted_project" });
    expect(await readdir(w.project)).toEqual([]);
    const file = await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), '{ "mcpServers": { ');
    await expect(setServerDisabled({ cwd: w.project, server: "a", disabled: true })).rejects.toThrow(
      /mcp-adapter\.json: invalid JSON at line 1 column \d+: .*\(fix the file first\)/,
    );
    expect(await readFile(file, "utf8")).toBe('{ "mcpServers": { ');
  });

  it("never leaves a torn file or loses a change when many writers race", async () => {
    await using w = await createWorld();
    const servers = Array.from({ length: 40 }, (_, i) => `s${i}`);
    await Promise.all(
      servers.map((server, i) => setServerDisabled({ cwd: w.project, server, disabled: i % 2 === 0 })),
    );
    const dir = path.join(w.project, ".pi");
    const parsed = JSON.parse(await readFile(path.join(dir, "mcp-adapter.json"), "utf8"));
    expect(Object.keys(parsed.mcpServers).sort()).toEqual([...servers].sort());
    expect(parsed.mcpServers.s3).toEqual({ disabled: false });
    expect((await readdir(dir)).filter((f) => f.endsWith(".tmp") || f.endsWith(".lock"))).toEqual([]);
  });

  it("keeps every change when separate processes write at once", async () => {
    await using w = await createWorld();
    const dist = new URL("../../dist/setup.js", import.meta.url).href;
    const script = (worker: number) =>
      `const { setServerDisabled } = await import(${JSON.stringify(dist)});
       for (let i = 0; i < 10; i++) await setServerDisabled({ cwd: ${JSON.stringify(w.project)}, server: "w${worker}-" + i, disabled: true });`;
    const codes = await Promise.all(
      [0, 1, 2, 3].map(
        (worker) =>
          new Promise<number | null>((resolve) => {
            const child = spawn(process.execPath, ["--input-type=module", "-e", script(worker)], {
              stdio: "inherit",
            });
            child.on("exit", resolve);
          }),
      ),
    );
    expect(codes).toEqual([0, 0, 0, 0]);
    const parsed = JSON.parse(await readFile(path.join(w.project, ".pi", "mcp-adapter.json"), "utf8"));
    expect(Object.keys(parsed.mcpServers)).toHaveLength(40);
  }, 60_000);
});
