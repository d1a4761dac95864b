// biome-ignore-all lint/suspicious/noTemplateCurlyInString: plugin configs use ${PLUGIN_ROOT} literally
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names } from "../world.js";

const manifest = (name: string) => ({
  $schema: "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
  name,
});
const mcp = (mcpServers: Record<string, unknown>) => ({
  $schema: "https://agent-plugins.org/schemas/1.0.0/mcp.schema.json",
  mcpServers,
});

describe("agent plugins", () => {
  it("loads <plugin>__<server> entries, expanding PLUGIN_ROOT/PLUGIN_DATA only in stdio args, env and cwd", async () => {
    await using w = await createWorld();
    const root = path.join(w.project, "plugins", "acme-tools");
    await w.write(path.join(root, "plugin.json"), manifest("acme-tools"));
    await w.write(
      path.join(root, "mcp.json"),
      mcp({
        local: {
          type: "stdio",
          command: "./bin/server",
          args: ["--data", "${PLUGIN_DATA}/db", "--root=${PLUGIN_ROOT}"],
          env: { CONFIG: "${PLUGIN_ROOT}/config.json" },
          cwd: "${PLUGIN_ROOT}/work",
        },
        remote: {
          type: "streamable-http",
          url: "https://acme.example.com/mcp",
          headers: { "X-Root": "${PLUGIN_ROOT}" },
        },
      }),
    );
    await w.write(path.join(w.project, ".mcp.json"), {
      settings: { agentPluginPaths: ["./plugins/acme-tools"] },
    });
    const config = await w.load();
    expect(config.problems).toEqual([]);
    expect(names(config)).toEqual(["acme-tools__local", "acme-tools__remote"]);
    const data = path.join(w.agentDir, "plugin-data", "acme-tools");
    expect(byName(config, "acme-tools__local")).toMatchObject({
      command: path.join(root, "bin", "server"),
      args: ["--data", `${data}/db`, `--root=${root}`],
      env: { CONFIG: `${root}/config.json`, PLUGIN_ROOT: root, PLUGIN_DATA: data },
      cwd: path.join(root, "work"),
    });
    expect(byName(config, "acme-tools__remote")).toMatchObject({
      transport: "http",
      headers: { "X-Root": "${PLUGIN_ROOT}" },
    });
  });

  it("skips invalid plugins and entries with a message, loading the rest", async () => {
    await using w = await createWorld();
    const plugins = path.join(w.home, "plugins");
    await w.write(path.join(plugins, "good", "plugin.json"), manifest("good"));
    await w.write(
      path.join(plugins, "good", "mcp.json"),
      mcp({ ok: { type: "stdio", command: "ok" }, bad: { type: "carrier-pigeon", command: "x" }, worse: 3 }),
    );
    await w.write(path.join(plugins, "bad-name", "plugin.json"), manifest("Bad Name"));
    await w.write(path.join(plugins, "no-schema", "plugin.json"), { name: "no-schema" });
    await w.write(path.join(plugins, "broken", "plugin.json"), "{ nope");
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      settings: {
        agentPluginPaths: [
          "~/plugins/good",
          "~/plugins/bad-name",
          "~/plugins/no-schema",
          "~/plugins/broken",
          "~/plugins/missing",
        ],
      },
    });
    const config = await w.load();
    expect(names(config)).toEqual(["good__ok"]);
    expect(byName(config, "good__ok").scope).toBe("plugin");
    const errors = messages(config, "error");
    expect(errors).toContain(
      'mcp.json: mcpServers.bad.type: unknown server type "carrier-pigeon" (expected stdio, streamable-http or sse)',
    );
    expect(errors).toContain("mcp.json: mcpServers.worse: expected an object");
    expect(errors).toContain(
      "plugin.json: name: expected lowercase letters, digits and single hyphens; plugin skipped",
    );
    expect(errors).toContainEqual(expect.stringMatching(/^plugin\.json: \$schema: .*; plugin skipped$/));
    expect(errors).toContainEqual(
      expect.stringMatching(/^plugin\.json: invalid JSON at line 1 column 3: .*; plugin skipped$/),
    );
    expect(errors).toContain("plugin.json: plugin directory has no plugin.json; plugin skipped");
  });

  it("treats plugins listed by a project file as project servers", async () => {
    await using w = await createWorld();
    const root = path.join(w.project, "p");
    await w.write(path.join(root, "plugin.json"), manifest("p"));
    await w.write(path.join(root, "mcp.json"), mcp({ s: { type: "stdio", command: "s" } }));
    await w.write(path.join(w.project, ".mcp.json"), { settings: { agentPluginPaths: ["p"] } });
    const config = await w.load({ trust: { trusted: true } });
    expect(names(config)).toEqual([]);
    expect(config.pendingProjectServers.map((p) => p.name)).toEqual(["p__s"]);
  });

  it("does not read a plugin inside an untrusted project, even when a user file lists it", async () => {
    await using w = await createWorld();
    const root = path.join(w.project, "p");
    await w.write(path.join(root, "plugin.json"), manifest("p"));
    await w.write(path.join(root, "mcp.json"), mcp({ s: { type: "stdio", command: "s" } }));
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { settings: { agentPluginPaths: [root] } });
    expect(names(await w.load())).toEqual(["p__s"]);
    const untrusted = await w.load({ trust: { trusted: false } });
    expect(names(untrusted)).toEqual([]);
    expect(messages(untrusted, "info")).toEqual(["p: plugin not loaded: the project is not trusted"]);
  });
});
