/**
 * The identities of config files that validated cleanly
 * (`<agent dir>/mcp-config-validated.json`): what a load writes there (only
 * path, size, mtime and SHA-256; user-only), that an unchanged file loads
 * the same without being validated again, that a changed file is validated
 * as always with its errors at file, field and line, and that a store that
 * is corrupt, of another version or pointing at other bytes is ignored.
 * Real files in a throwaway home; `loadConfig` as hosts call it.
 */
import { createHash } from "node:crypto";
import { readFile, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { VALIDATED_CONFIG_FILE } from "../../src/index.js";
import { byName, createWorld, type World } from "../world.js";

const TOKEN = "ghp_validatedStoreToken0123456789";

const valid = {
  mcpServers: {
    github: {
      url: "https://api.example.com/mcp",
      headers: { Authorization: `Bearer ${TOKEN}` },
      oauth: { clientId: "pi-client", notAnOption: true },
    },
    local: { command: "node", args: ["server.js"], env: { API_KEY: TOKEN }, futureKey: 1 },
  },
  settings: { toolPrefix: "short", trace: { enabled: true, colour: "red" } },
};

async function store(
  w: World,
): Promise<{ text: string; json: { version: string; files: Record<string, unknown> } }> {
  const text = await readFile(path.join(w.agentDir, VALIDATED_CONFIG_FILE), "utf8");
  return { text, json: JSON.parse(text) };
}

describe("config files validated once", () => {
  it("keep only each clean file's identity, in a user-only file", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), valid);
    await w.load();
    const storeFile = path.join(w.agentDir, VALIDATED_CONFIG_FILE);
    expect((await stat(storeFile)).mode & 0o777).toBe(0o600);
    const { text, json } = await store(w);
    const info = await stat(file);
    expect(json.files).toEqual({
      [file]: { size: info.size, mtimeMs: info.mtimeMs, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    for (const value of [TOKEN, "api.example.com", "pi-client", "server.js", "github"])
      expect(text).not.toContain(value);
  });

  it("load an unchanged file to the same config, warnings included, and leave the store as it was", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), valid);
    const first = await w.load();
    const before = (await store(w)).text;
    const again = await w.load();
    expect(again.servers).toStrictEqual(first.servers);
    expect(again.settings).toStrictEqual(first.settings);
    expect(again.problems).toStrictEqual(first.problems);
    expect(again.problems.map((p) => p.field).sort()).toEqual([
      "mcpServers.github.oauth.notAnOption",
      "mcpServers.local.futureKey",
    ]);
    // What zod strips stays stripped.
    expect(again.settings.trace).toEqual({ enabled: true });
    expect(byName(again, "github").oauth).toEqual({ clientId: "pi-client" });
    expect(again.configHash).toBe(first.configHash);
    expect((await store(w)).text).toBe(before);
  });

  it("skip zod for a file whose identity they hold (which is why the store is the user's alone)", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), valid);
    await w.load();
    // The store is rewritten to name bytes zod would refuse: a load that finds them there does not validate.
    const bad = JSON.stringify({ mcpServers: { local: { command: "node", lifecycle: "sometimes" } } });
    await writeFile(file, bad);
    const info = await stat(file);
    const { json } = await store(w);
    const sha256 = createHash("sha256").update(bad).digest("hex");
    json.files[file] = { size: info.size, mtimeMs: info.mtimeMs, sha256 };
    await writeFile(path.join(w.agentDir, VALIDATED_CONFIG_FILE), JSON.stringify(json));
    const trusted = await w.load();
    expect(trusted.problems).toEqual([]);
    expect(byName(trusted, "local").lifecycle).toBe("sometimes");
  });

  it("validate a changed file again: its errors name the file and field (and the line of a syntax error)", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), valid);
    await w.load();
    await w.write(file, { mcpServers: { local: { command: "node", lifecycle: "sometimes" } } });
    const changed = await w.load();
    expect(changed.problems).toContainEqual(
      expect.objectContaining({ severity: "error", file, field: "mcpServers.local.lifecycle" }),
    );
    expect(changed.servers.map((s) => s.name)).toEqual([]);
    // A file with errors is not kept as validated: the next load reports them again.
    expect((await store(w)).json.files).toEqual({});
    expect((await w.load()).problems).toContainEqual(
      expect.objectContaining({ severity: "error", file, field: "mcpServers.local.lifecycle" }),
    );

    await w.write(file, '{\n  "mcpServers": {\n    "local": { "command": "node" },,\n  }\n}\n');
    const broken = await w.load();
    expect(broken.problems).toContainEqual(
      expect.objectContaining({
        severity: "error",
        file,
        message: expect.stringMatching(/^invalid JSON at line 3 /),
      }),
    );
  });

  it("validate a file whose bytes changed though its size and mtime did not", async () => {
    await using w = await createWorld();
    const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      mcpServers: { local: { command: "node", lifecycle: "eager" } },
    });
    const { mtime } = await stat(file);
    await w.load();
    // Same length, same mtime, other bytes: only the hash tells.
    await writeFile(
      file,
      JSON.stringify({ mcpServers: { local: { command: "node", lifecycle: "eagor" } } }, null, 2),
    );
    await utimes(file, mtime, mtime);
    const changed = await w.load();
    expect(changed.problems).toContainEqual(
      expect.objectContaining({ severity: "error", file, field: "mcpServers.local.lifecycle" }),
    );
  });

  it("ignore a store that is corrupt, of another version or of other bytes, and write a good one", async () => {
    for (const bad of [
      "{ not json",
      JSON.stringify({ version: "0 config@0.0.1 core@0.0.1", files: {} }),
      JSON.stringify({ version: 7, files: [] }),
      "null",
    ]) {
      await using w = await createWorld();
      const file = await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
        mcpServers: { local: { command: "node", lifecycle: "sometimes" } },
      });
      await writeFile(path.join(w.agentDir, VALIDATED_CONFIG_FILE), bad);
      const loaded = await w.load();
      expect(loaded.problems, bad).toContainEqual(
        expect.objectContaining({ severity: "error", file, field: "mcpServers.local.lifecycle" }),
      );
      await w.write(file, valid);
      expect((await w.load()).servers.map((s) => s.name).sort()).toEqual(["github", "local"]);
      expect(Object.keys((await store(w)).json.files)).toEqual([file]);
    }
  });

  it("are not kept when the host says so (`validatedFiles: false`)", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), valid);
    await w.load({ validatedFiles: false });
    await expect(stat(path.join(w.agentDir, VALIDATED_CONFIG_FILE))).rejects.toThrow(/ENOENT/);
  });
});
