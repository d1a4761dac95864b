/**
 * `ResolvedConfig.fileStamps`: each config file's size and modification time
 * as the loader read it, and the candidates it looked for that were missing,
 * so a host can tell later that a file changed without reading it again.
 */
import { stat, utimes } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createWorld, stdio } from "../world.js";

describe("loadConfig: file stamps", () => {
  it("stamps every file it read with size and mtime, and every candidate it found missing", async () => {
    await using w = await createWorld();
    const user = await w.write(path.join(w.agentDir, "mcp-adapter.json"), { mcpServers: { a: stdio("a") } });
    const project = await w.write(path.join(w.project, ".mcp.json"), "{ not json");
    await utimes(project, new Date(1_700_000_000_000), new Date(1_700_000_000_000));
    const config = await w.load();
    const stampOf = (file: string) => config.fileStamps.find((s) => s.file === file);
    const userInfo = await stat(user);
    expect(stampOf(user)).toEqual({ file: user, size: userInfo.size, mtimeMs: userInfo.mtimeMs });
    // A file that could not be parsed was still read: its stamp says which version was.
    expect(stampOf(project)).toEqual({ file: project, size: 10, mtimeMs: 1_700_000_000_000 });
    const missing = path.join(w.home, ".agents", "mcp.json");
    expect(stampOf(missing)).toEqual({ file: missing, missing: true });
    expect(stampOf(path.join(w.project, ".pi", "mcp-adapter.json"))).toMatchObject({ missing: true });
    expect(config.sources.every((file) => stampOf(file) && !stampOf(file)?.missing)).toBe(true);
  });

  it("stamps an untrusted project's files without reading them, and nothing for an inline config", async () => {
    await using w = await createWorld();
    const project = await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("p") } });
    const untrusted = await w.load({ trust: { trusted: false } });
    expect(untrusted.sources).toEqual([]);
    expect(untrusted.fileStamps.find((s) => s.file === project)).toMatchObject({
      size: (await stat(project)).size,
    });
    const inline = await w.load({ config: { mcpServers: { i: stdio("i") } } });
    expect(inline.fileStamps).toEqual([]);
  });
});
