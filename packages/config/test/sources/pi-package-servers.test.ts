/**
 * Servers shipped inside Pi packages, read from real package directories
 * laid out where Pi installs them (npm, git and local sources; user and
 * project settings), with the path rules and the ranking below user files.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names, type World } from "../world.js";

async function pkg(
  w: World,
  dir: string,
  manifest: Record<string, unknown>,
  files: Record<string, unknown> = {},
) {
  await w.write(path.join(dir, "package.json"), manifest);
  for (const [name, content] of Object.entries(files)) await w.write(path.join(dir, name), content);
  return dir;
}

describe("servers from Pi packages", () => {
  it("loads npm, git and local packages listed in Pi's user settings, named <package>__<server>, paths inside the package", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "settings.json"), {
      // Pi's own settings: only `packages` matters here.
      defaultModel: "x",
      packages: ["npm:@acme/tools@1.2.0", { source: "git:github.com/someone/mcp-pack@v1" }, "./local-pack"],
    });
    const npmDir = await pkg(
      w,
      path.join(w.agentDir, "npm", "node_modules", "@acme", "tools"),
      { name: "@acme/tools", pi: { mcp: "./mcp.json" } },
      {
        "mcp.json": `{
  // JSONC is fine here too
  "mcpServers": { "search": { "command": "./bin/server.js", "args": ["--db", "./data/db.sqlite", "-v"], "cwd": "." } },
  "settings": { "toolPrefix": "none" },
}`,
      },
    );
    const gitDir = await pkg(w, path.join(w.agentDir, "git", "github.com", "someone", "mcp-pack"), {
      name: "mcp-pack",
      pi: { extensions: ["./ext"], mcp: { mcpServers: { docs: { url: "https://docs.example.com/mcp" } } } },
    });
    await pkg(w, path.join(w.agentDir, "local-pack"), {
      name: "local-pack",
      pi: { mcp: [{ name: "node tool", command: "node", args: ["./index.js"] }] },
    });

    const config = await w.load();
    expect(names(config)).toEqual(["acme_tools__search", "local-pack__node_tool", "mcp-pack__docs"]);
    const search = byName(config, "acme_tools__search");
    expect(search.command).toBe(path.join(npmDir, "bin", "server.js"));
    expect(search.args).toEqual(["--db", path.join(npmDir, "data", "db.sqlite"), "-v"]);
    expect(search.cwd).toBe(npmDir);
    expect(search.source).toEqual({ file: path.join(npmDir, "mcp.json"), key: "mcpServers.search" });
    expect(byName(config, "mcp-pack__docs").url).toBe("https://docs.example.com/mcp");
    expect(byName(config, "mcp-pack__docs").source.file).toBe(path.join(gitDir, "package.json"));
    expect(byName(config, "local-pack__node_tool").command).toBe("node");
    expect(byName(config, "local-pack__node_tool").args).toEqual([
      path.join(w.agentDir, "local-pack", "index.js"),
    ]);
    // A package's settings are never taken.
    expect(config.settings.toolPrefix).toBeUndefined();
    expect(messages(config)).toEqual([
      "mcp.json: Pi package @acme/tools: settings in a package's MCP config are ignored (only its servers are used)",
    ]);
  });

  it("refuses paths that leave the package, naming package and server, and loads the rest", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "settings.json"), { packages: ["npm:sneaky", "npm:escaper"] });
    const root = path.join(w.agentDir, "npm", "node_modules");
    await pkg(w, path.join(root, "sneaky"), {
      name: "sneaky",
      pi: {
        mcp: {
          mcpServers: {
            up: { command: "node", args: ["../../../../.ssh/steal.js"] },
            cmd: { command: "../other/bin.js" },
            dir: { command: "node", cwd: "../.." },
            fine: { command: "node", args: ["./ok.js"] },
          },
        },
      },
    });
    await pkg(w, path.join(root, "escaper"), { name: "escaper", pi: { mcp: "../sneaky/package.json" } });

    const config = await w.load();
    expect(names(config)).toEqual(["sneaky__fine"]);
    const sneaky = path.join(root, "sneaky");
    expect(messages(config, "warning")).toEqual([
      `package.json: pi.mcp.mcpServers.up: Pi package sneaky: server "up": argument "../../../../.ssh/steal.js" resolves outside the package (${path.resolve(sneaky, "../../../../.ssh/steal.js")}); the server is not loaded`,
      `package.json: pi.mcp.mcpServers.cmd: Pi package sneaky: server "cmd": command "../other/bin.js" resolves outside the package (${path.join(root, "other", "bin.js")}); the server is not loaded`,
      `package.json: pi.mcp.mcpServers.dir: Pi package sneaky: server "dir": cwd "../.." resolves outside the package (${path.resolve(sneaky, "../..")}); the server is not loaded`,
      'package.json: pi.mcp: Pi package escaper: MCP config "../sneaky/package.json" must be a file inside the package; skipped',
    ]);
  });

  it("ranks below every user config: a user file overrides or disables a package server by its name", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.agentDir, "settings.json"), { packages: ["npm:pack", "npm:listed"] });
    await pkg(w, path.join(w.agentDir, "npm", "node_modules", "pack"), {
      name: "pack",
      pi: { mcp: { a: { command: "node" }, b: { command: "node" }, c: { command: "" } } },
    });
    await pkg(w, path.join(w.agentDir, "npm", "node_modules", "listed"), {
      name: "listed",
      pi: { mcp: ["./missing.json", { name: "ok", command: "node" }, { command: "no-name" }] },
    });
    await w.write(path.join(w.home, ".cursor", "mcp.json"), {
      mcpServers: { pack__a: { command: "cursor-a" } },
    });
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      imports: ["cursor"],
      mcpServers: { pack__b: { disabled: true } },
    });
    const config = await w.load();
    expect(byName(config, "pack__a").command).toBe("cursor-a");
    expect(byName(config, "pack__b").disabled).toBe(true);
    expect(byName(config, "pack__b").command).toBe("node");
    expect(byName(config, "listed__ok").command).toBe("node");
    // Problems name the field as it is written in package.json.
    expect(messages(config)).toEqual([
      "package.json: pi.mcp.c.command: must not be empty",
      'package.json: pi.mcp: Pi package listed: MCP config "./missing.json" does not exist; skipped',
      "package.json: pi.mcp.2.name: each server needs a string name",
    ]);
  });

  it("reads project packages only in a trusted project, as project servers needing approval", async () => {
    await using w = await createWorld();
    const piDir = path.join(w.project, ".pi");
    await w.write(path.join(piDir, "settings.json"), { packages: ["npm:team-pack", "../vendor/pack"] });
    await pkg(w, path.join(piDir, "npm", "node_modules", "team-pack"), {
      name: "team-pack",
      pi: { mcp: { db: { command: "node" } } },
    });
    await pkg(w, path.join(w.project, "vendor", "pack"), {
      name: "vendored",
      pi: { mcp: { x: { command: "node" } } },
    });

    const untrusted = await w.load({ trust: { trusted: false } });
    expect(names(untrusted)).toEqual([]);
    const undecided = await w.load({ trust: { trusted: true } });
    expect(undecided.pendingProjectServers.map((p) => p.name).sort()).toEqual([
      "team-pack__db",
      "vendored__x",
    ]);
    const admitted = await w.load();
    expect(names(admitted)).toEqual(["team-pack__db", "vendored__x"]);
    expect(byName(admitted, "team-pack__db").scope).toBe("project");
  });

  it("finds a user package where Pi 0.7x installed it (npm's global root) and skips packages not installed", async () => {
    await using w = await createWorld();
    const prefix = w.dir.join("npm-prefix");
    await w.write(path.join(w.agentDir, "settings.json"), {
      packages: ["npm:old-style", "npm:not-installed", "ftp://nowhere"],
    });
    await pkg(w, path.join(prefix, "lib", "node_modules", "old-style"), {
      name: "old-style",
      pi: { mcp: { s: { command: "node" } } },
    });
    await mkdir(path.join(w.agentDir, "npm"), { recursive: true });
    await writeFile(path.join(w.agentDir, "npm", "package.json"), "{}");
    const config = await w.load({ environment: { env: { npm_config_prefix: prefix } } });
    expect(names(config)).toEqual(["old-style__s"]);
    expect(messages(config)).toEqual([
      "settings.json: packages.2: not a package source this adapter can locate; its MCP servers are not loaded",
    ]);
  });
});
