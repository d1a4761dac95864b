/**
 * A tool name nobody knows, after a config file changed on disk during the
 * session (a server added to it): the error says which file changed and how
 * to apply it — the host's reload command, or "reload the config" — and
 * once the config is read again, the new server's tool is there. Real stdio
 * fixture servers; the user's home and agent dir are the test's own.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { createTempDir, stdioFixtureServerPath, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type AdapterRuntime, createRuntime, headlessHost } from "../../src/index.js";

let dir: TempDir;
let runtime: AdapterRuntime | undefined;
beforeEach(async () => {
  dir = await createTempDir();
  vi.stubEnv("HOME", dir.join("home"));
  vi.stubEnv("PI_CODING_AGENT_DIR", dir.join("agent"));
});
afterEach(async () => {
  await runtime?.shutdown();
  runtime = undefined;
  vi.unstubAllEnvs();
  await dir.remove();
});

const server = { command: process.execPath, args: [stdioFixtureServerPath] };
const writeProject = (mcpServers: Record<string, unknown>) =>
  writeFile(dir.join(".mcp.json"), JSON.stringify({ mcpServers }));

async function start(reloadCommand?: string) {
  runtime = await createRuntime({
    cwd: dir.path,
    metadataCacheFile: false,
    npxCacheFile: false,
    serverLogFile: false,
    host: { ...headlessHost(), ...(reloadCommand ? { reloadCommand } : {}) },
  });
  return runtime;
}

describe("an unknown tool name after a config file changed", () => {
  it("names the changed file and the host's reload command; after a reload the tool is there", async () => {
    await writeProject({ fixture: server });
    const r = await start("/reload");
    const unknown = r.call("other_echo", { text: "hi" });
    await expect(unknown).rejects.toThrow('No MCP tool named "other_echo".');
    await expect(unknown).rejects.not.toThrow("changed since");

    await writeProject({ fixture: server, other: server });
    const message = await r.call("other_echo", { text: "hi" }).then(
      () => "",
      (error: Error) => error.message,
    );
    expect(message).toMatch(/^No MCP tool named "other_echo"\. Did you mean: fixture_echo, [^?]+\?/);
    expect(message).toContain(
      ` ${dir.join(".mcp.json")} changed since this session started; run /reload to apply it.`,
    );

    await r.reload();
    expect((await r.call("other_echo", { text: "hi" })).content).toEqual([{ type: "text", text: "hi" }]);
    await expect(r.call("third_echo", {})).rejects.not.toThrow("changed since");
  });

  it("a config file created during the session counts too; without a host command, says to reload the config", async () => {
    await writeProject({ fixture: server });
    const r = await start();
    await r.catalog.view();
    const agentFile = dir.join("agent", "mcp-adapter.json");
    await mkdir(dir.join("agent"), { recursive: true });
    await writeFile(agentFile, JSON.stringify({ mcpServers: { other: server } }));
    await expect(r.catalog.resolve("other_echo")).rejects.toThrow(
      `${agentFile} changed since this session started; reload the config to apply it.`,
    );
  });
});
