// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * Writing config files people also edit by hand: one server added, replaced
 * or removed changes only that server's text (comments and formatting stay),
 * the file keeps its mode, a new file is private, and a whole-file edit with
 * an error leaves the file as it was.
 */
import { chmod, readFile, stat, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { maskServerDefinition } from "../../src/index.js";
import {
  addServers,
  addServerToFile,
  parseAddServerArgs,
  removeServerFromFile,
  replaceConfigText,
  setServerDisabled,
} from "../../src/setup.js";
import { byName, createWorld } from "../world.js";

const HAND_WRITTEN = `{
    // my servers, four-space indent
    "mcpServers": {
        "docs": { "url": "https://docs.example.com/mcp" }, // keep this comment
        /* and this one */
        "tools": {
            "command": "node",
            "args": ["tools.js",],
        },
    },
    "settings": { "toolPrefix": "short" }
}
`;

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe("adding and removing one server", () => {
  it("adds a server leaving every other byte of a commented file as it was, and keeps its 0600 mode", async () => {
    await using dir = await createTempDir();
    const file = dir.join("mcp-adapter.json");
    await writeFile(file, HAND_WRITTEN);
    await chmod(file, 0o600);
    const request = parseAddServerArgs(["gh", "--env", "GITHUB_TOKEN=${GH}", "--", "npx", "-y", "gh-mcp"]);
    await addServerToFile(file, request.name, request.entry);

    const text = await readFile(file, "utf8");
    const insertedAt = text.indexOf(',\n        "gh"');
    expect(insertedAt).toBeGreaterThan(0);
    // Everything before the new entry, and everything from the object's closing brace on, is unchanged.
    const tail = HAND_WRITTEN.slice(HAND_WRITTEN.lastIndexOf("\n    },"));
    expect(text.slice(0, insertedAt)).toBe(HAND_WRITTEN.slice(0, HAND_WRITTEN.lastIndexOf(",\n    },")));
    expect(text.endsWith(tail)).toBe(true);
    expect(text).toContain('        "gh": {\n            "command": "npx",');
    expect(await mode(file)).toBe(0o600);
  });

  it("refuses an existing name without force, replaces it with force, and removes it again", async () => {
    await using w = await createWorld();
    const file = path.join(w.agentDir, "mcp-adapter.json");
    await writeFile(file, HAND_WRITTEN);
    await expect(addServerToFile(file, "docs", { url: "https://other.example.com/mcp" })).rejects.toThrow(
      `"docs" is already defined in ${file}; add --force to replace it`,
    );
    expect(await readFile(file, "utf8")).toBe(HAND_WRITTEN);
    const replaced = await addServerToFile(
      file,
      "docs",
      { url: "https://other.example.com/mcp" },
      { force: true },
    );
    expect(replaced.replaced).toBe(true);
    expect(byName(await w.load(), "docs").url).toBe("https://other.example.com/mcp");
    expect(await readFile(file, "utf8")).toContain("// keep this comment");

    await removeServerFromFile(file, "tools");
    const text = await readFile(file, "utf8");
    expect(text).not.toContain('"tools"');
    expect(text).toContain("// my servers, four-space indent");
    await expect(removeServerFromFile(file, "tools")).rejects.toThrow(
      `${file} defines no server named "tools"`,
    );
  });

  it("removes only the server's own lines, its neighbours' comments kept byte for byte", async () => {
    await using dir = await createTempDir();
    const file = dir.join("mcp.json");
    await writeFile(file, HAND_WRITTEN);
    await removeServerFromFile(file, "tools");
    const block =
      '        "tools": {\n            "command": "node",\n            "args": ["tools.js",],\n        },\n';
    expect(HAND_WRITTEN).toContain(block);
    expect(await readFile(file, "utf8")).toBe(HAND_WRITTEN.replace(block, ""));
  });

  it("validates the entry as the loader would before writing anything", async () => {
    await using dir = await createTempDir();
    const file = dir.join("mcp-adapter.json");
    await expect(addServerToFile(file, "bad", { url: "ftp://x" })).rejects.toThrow(
      `Not adding "bad": ${file}: mcpServers.bad.url: expected an http(s) URL, found "ftp://x"`,
    );
    await expect(addServerToFile(file, "bad", { command: "x", lifecycle: "sometimes" })).rejects.toThrow(
      /mcpServers\.bad\.lifecycle: /,
    );
    await expect(stat(file)).rejects.toThrow(/ENOENT/);
  });

  it("creates a new file 0600 and writes through a symlink to its target", async () => {
    await using dir = await createTempDir();
    const created = dir.join("agent", "mcp-adapter.json");
    await addServerToFile(created, "s", { command: "x", env: { TOKEN: "secret" } });
    expect(await mode(created)).toBe(0o600);

    const target = dir.join("dotfiles", "mcp.json");
    await addServerToFile(target, "a", { command: "a" });
    await chmod(target, 0o640);
    const link = dir.join("link.json");
    await symlink(target, link);
    await addServerToFile(link, "b", { command: "b" });
    expect(JSON.parse(await readFile(target, "utf8")).mcpServers).toEqual({
      a: { command: "a" },
      b: { command: "b" },
    });
    expect(await mode(target)).toBe(0o640);
  });
});

describe("file modes of setup and disable (issue: rewrites widened 0600 files to 0644)", () => {
  it("disable and setup's add keep a 0600 file private; copying servers creates a 0600 file", async () => {
    await using w = await createWorld();
    const override = path.join(w.project, ".pi", "mcp-adapter.json");
    await w.write(override, { mcpServers: { api: { url: "https://x.example.com", bearerToken: "tok" } } });
    await chmod(override, 0o600);
    await setServerDisabled({ cwd: w.project, server: "api", disabled: true });
    expect(await mode(override)).toBe(0o600);
    await addServers(override, { other: { command: "x" } });
    expect(await mode(override)).toBe(0o600);
    const copied = path.join(w.agentDir, "mcp-adapter.json");
    await addServers(copied, {
      api: { url: "https://x.example.com", headers: { Authorization: "Bearer tok" } },
    });
    expect(await mode(copied)).toBe(0o600);
  });
});

describe("saving a whole edited file", () => {
  it("refuses text with an error, naming line and column, and leaves the file untouched", async () => {
    await using dir = await createTempDir();
    const file = dir.join(".mcp.json");
    await writeFile(file, HAND_WRITTEN);
    const broken = HAND_WRITTEN.replace('"command": "node",', '"command": "node"');
    await expect(replaceConfigText(file, HAND_WRITTEN, broken, "project")).rejects.toThrow(
      `Not saved: ${file}: invalid JSON at line 8 column 13: expected "," or a closing bracket`,
    );
    const badEntry = HAND_WRITTEN.replace('"command": "node"', '"command": ""');
    await expect(replaceConfigText(file, HAND_WRITTEN, badEntry, "project")).rejects.toThrow(
      /mcpServers\.tools\.command: must not be empty/,
    );
    expect(await readFile(file, "utf8")).toBe(HAND_WRITTEN);
    await expect(replaceConfigText(file, "{}", HAND_WRITTEN, "project")).rejects.toThrow(
      /changed while it was being edited/,
    );
  });

  it("saves JSONC with warnings reported, not blocking", async () => {
    await using dir = await createTempDir();
    const file = dir.join(".mcp.json");
    const next = HAND_WRITTEN.replace('"toolPrefix": "short"', '"toolPrefix": "short", "someday": true');
    const warnings = await replaceConfigText(file, undefined, next, "project");
    expect(warnings.map((p) => p.field)).toEqual(["settings.someday"]);
    expect(await readFile(file, "utf8")).toBe(next);
    expect(await mode(file)).toBe(0o600);
  });
});

describe("masking a definition for display", () => {
  it("masks env, header, token, secret, URL and flag values, keeping keys and ${VAR} references", () => {
    const source = { file: "f", key: "k" };
    const shown = maskServerDefinition({
      name: "s",
      transport: "stdio",
      command: "srv",
      args: ["--api-key=abc", "--token", "xyz", "--verbose", "--port", "80"],
      env: { A: "plain-secret", B: "${FROM_ENV}", C: "!pass show x" },
      headers: { Authorization: "Bearer abc" },
      url: "https://user:pw@example.com/mcp?key=abc&x=1",
      bearerToken: "tok",
      oauth: { clientId: "id", clientSecret: "sec" },
      requestHeadersCommand: {
        command: "sign",
        args: ["--secret", "s3"],
        env: { KEY: "k3", REF: "$env:KEY" },
      },
      lifecycle: "lazy",
      protocol: "legacy",
      source,
      layers: [source],
      scope: "user",
    });
    expect(shown).toEqual({
      transport: "stdio",
      command: "srv",
      args: ["--api-key=****", "--token", "****", "--verbose", "--port", "80"],
      env: { A: "****", B: "${FROM_ENV}", C: "****" },
      headers: { Authorization: "****" },
      url: "https://user:****@example.com/mcp?key=****&x=****",
      bearerToken: "****",
      oauth: { clientId: "id", clientSecret: "****" },
      requestHeadersCommand: {
        command: "sign",
        args: ["--secret", "****"],
        env: { KEY: "****", REF: "$env:KEY" },
      },
      lifecycle: "lazy",
      protocol: "legacy",
    });
  });
});
