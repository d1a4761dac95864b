import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  createFileApprovalStore,
  definitionHash,
  describeProjectServer,
  type ProjectTrust,
} from "../../src/index.js";
import { createMemoryApprovalStore } from "../../src/trust/approval-store.js";
import { byName, createWorld, messages, names, stdio } from "../world.js";

describe("project trust and approval", () => {
  it("reads no project file when the host says the project is untrusted", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), { mcpServers: { user: stdio("u") } });
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { project: stdio("p") } });
    await w.write(path.join(w.project, ".cursor", "mcp.json"), { mcpServers: { cursorProject: stdio("c") } });
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      imports: ["cursor"],
      mcpServers: { user: stdio("u") },
    });
    const config = await w.load({ trust: { trusted: false, confirm: async () => true } });
    expect(names(config)).toEqual(["user"]);
    expect(config.projectFilesRead).toBe(false);
    expect(config.sources).not.toContain(path.join(w.project, ".mcp.json"));
    expect(messages(config, "info")).toEqual([".mcp.json: not loaded: the project is not trusted"]);
  });

  it("skips unapproved project servers in a trusted headless session, naming them", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      mcpServers: { p: stdio("p"), off: stdio("o", { disabled: true }) },
    });
    const config = await w.load({ trust: { trusted: true, approvals: createMemoryApprovalStore() } });
    expect(names(config)).toEqual(["off"]);
    expect(config.pendingProjectServers.map((p) => p.name)).toEqual(["p"]);
    expect(messages(config, "info")[0]).toMatch(
      /^\.mcp\.json: mcpServers\.p: project server "p" is not approved yet; skipped/,
    );
  });

  it("skips them on a host without trust (Pi 0.7x) unless approved", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("p") } });
    expect(names(await w.load({ trust: { trusted: undefined } }))).toEqual([]);
    expect(names(await w.load({ trust: undefined }))).toEqual([]);
  });

  it("admits an approved definition, and asks again once the definition changes", async () => {
    await using w = await createWorld();
    const store = createFileApprovalStore(path.join(w.agentDir, "mcp-adapter-approvals.json"));
    const asked: string[] = [];
    const trust = (answer: boolean): ProjectTrust => ({
      trusted: true,
      approvals: store,
      confirm: async (request) => {
        asked.push(`${request.server.name}:${request.server.command}`);
        return answer;
      },
    });
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("v1") } });
    expect(names(await w.load({ trust: trust(true) }))).toEqual(["p"]);
    expect(names(await w.load({ trust: { trusted: true, approvals: store } }))).toEqual(["p"]);
    const saved = JSON.parse(await readFile(path.join(w.agentDir, "mcp-adapter-approvals.json"), "utf8"));
    expect(saved.approvals).toEqual([
      expect.objectContaining({
        project: w.project,
        server: "p",
        hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);

    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("v2") } });
    expect(names(await w.load({ trust: { trusted: true, approvals: store } }))).toEqual([]);
    expect(names(await w.load({ trust: trust(false) }))).toEqual([]);
    expect(asked).toEqual(["p:v1", "p:v2"]);
  });

  it("keys approval to the effective definition, including an override from .pi/mcp-adapter.json", async () => {
    await using w = await createWorld();
    const store = createMemoryApprovalStore();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("p") } });
    const first = await w.load({ trust: { trusted: true, approvals: store, confirm: async () => true } });
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: { p: { args: ["--evil"] } },
    });
    const second = await w.load({ trust: { trusted: true, approvals: store } });
    expect(names(first)).toEqual(["p"]);
    expect(names(second)).toEqual([]);
    expect(second.pendingProjectServers[0]?.hash).not.toBe(definitionHash(byName(first, "p")));
  });

  it("treats a project override of a user server as a project definition, keeping the user's version meanwhile", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), {
      mcpServers: { gh: stdio("gh-server"), docs: stdio("docs-server"), off: stdio("off-server") },
    });
    await w.write(path.join(w.project, ".pi", "mcp-adapter.json"), {
      mcpServers: { gh: { env: { LD_PRELOAD: "./evil.so" } }, off: { disabled: true } },
    });
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { docs: stdio("project-docs") } });
    const config = await w.load({ trust: { trusted: true } });
    expect(names(config)).toEqual(["docs", "gh", "off"]);
    expect(byName(config, "gh").env).toBeUndefined();
    expect(byName(config, "docs").command).toBe("docs-server");
    expect(byName(config, "off").disabled).toBe(true);
    expect(config.pendingProjectServers.map((p) => p.name).sort()).toEqual(["docs", "gh"]);
    expect(messages(config, "info")).toContain(
      'mcp.json: mcpServers.gh: using this definition of "gh" until the project\'s version is approved',
    );

    const shown: string[][] = [];
    const approved = await w.load({
      trust: {
        trusted: true,
        confirm: async (request) => Boolean(shown.push(describeProjectServer(request))),
      },
    });
    const overrideFile = path.join(w.project, ".pi", "mcp-adapter.json");
    const userFile = path.join(w.home, ".config", "mcp", "mcp.json");
    expect(shown.find((lines) => lines[0]?.includes('"gh"'))?.[0]).toBe(
      `The project ${w.project} changes the MCP server "gh" (defined in ${userFile}) in ${overrideFile}.`,
    );
    expect(shown.find((lines) => lines[0]?.includes('"docs"'))?.[0]).toBe(
      `The project ${w.project} defines the MCP server "docs" in ${path.join(w.project, ".mcp.json")}.`,
    );
    expect(byName(approved, "gh").env).toEqual({ LD_PRELOAD: "./evil.so" });
    expect(byName(approved, "docs").command).toBe("project-docs");
  });

  it('admits project servers with user-global projectServers: "allow", but not when a project file sets it', async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), {
      settings: { projectServers: "allow" },
      mcpServers: { p: stdio("p") },
    });
    const loosened = await w.load({ trust: { trusted: true } });
    expect(names(loosened)).toEqual([]);
    expect(messages(loosened, "warning")).toEqual([
      ".mcp.json: settings.projectServers: this setting is honoured only in user-level config files, ignored here",
    ]);
    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { settings: { projectServers: "allow" } });
    expect(names(await w.load({ trust: { trusted: true } }))).toEqual(["p"]);
    expect(names(await w.load({ trust: { trusted: false } }))).toEqual([]);
  });

  it("treats a confirm that throws as a refusal, and a failing approval store as session-only", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { p: stdio("p") } });
    const refused = await w.load({
      trust: {
        trusted: true,
        confirm: async () => {
          throw new Error("dialog closed");
        },
      },
    });
    expect(names(refused)).toEqual([]);
    const broken = {
      isApproved: async () => false,
      approve: async () => {
        throw Object.assign(new Error("EROFS: read-only file system, open '/ro/approvals.json'"), {
          code: "EROFS",
        });
      },
    };
    const admitted = await w.load({ trust: { trusted: true, approvals: broken, confirm: async () => true } });
    expect(names(admitted)).toEqual(["p"]);
    expect(messages(admitted, "warning")).toEqual([
      ".mcp.json: mcpServers.p: approval could not be saved (EROFS: read-only file system, open '/ro/approvals.json'); it holds for this session only",
    ]);
  });

  it("reads ancestor project files only under user-global ancestorConfigRoots, nearer files winning", async () => {
    await using w = await createWorld();
    const work = path.dirname(w.project);
    await w.write(path.join(work, ".mcp.json"), {
      mcpServers: { parent: stdio("parent"), shared: stdio("parent") },
    });
    await w.write(path.join(w.project, ".mcp.json"), { mcpServers: { shared: stdio("child") } });
    expect(names(await w.load())).toEqual(["shared"]);

    await w.write(path.join(w.agentDir, "mcp-adapter.json"), { settings: { ancestorConfigRoots: [work] } });
    const config = await w.load();
    expect(names(config)).toEqual(["parent", "shared"]);
    expect(byName(config, "shared").command).toBe("child");
    expect(byName(config, "parent").scope).toBe("project");

    await w.write(path.join(w.agentDir, "mcp-adapter.json"), {
      settings: { ancestorConfigRoots: [w.dir.join("other")] },
    });
    expect(names(await w.load())).toEqual(["shared"]);
  });
});
