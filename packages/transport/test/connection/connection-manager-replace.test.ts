/** ConnectionManager.replace and the notification relay, against real fixture servers. */

import type { Provenance, ServerDefinition } from "@pi-mcp-adapter/core";
import {
  clientFeaturesServerPath,
  createClientFeaturesServer,
  createTempDir,
  recordedPids,
  serveStreamableHttp,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionManager, type ServerNotification, type ServerStatus } from "../../src/index.js";
import { connectWith, definition, failure, fixtureStdio, text } from "../helpers.js";

let manager: ConnectionManager | undefined;
afterEach(async () => {
  await manager?.shutdown();
  manager = undefined;
});

describe("ConnectionManager notifications and handlers", () => {
  it("relays each server's notifications under its name and gives each server its own handlers", async () => {
    await using http = await serveStreamableHttp(() => createClientFeaturesServer());
    const servers = [
      definition({
        name: "local",
        transport: "stdio",
        command: process.execPath,
        args: [clientFeaturesServerPath],
      }),
      definition({ name: "remote", transport: "http", url: http.url }),
    ];
    const asked: string[] = [];
    manager = new ConnectionManager(servers, {
      connect: connectWith({
        handlers: (d) =>
          d.name === "local"
            ? {
                roots: async (context) => {
                  asked.push(context.server);
                  return [{ uri: "file:///local" }];
                },
              }
            : undefined,
      }),
    });
    const events: [string, ServerNotification["kind"]][] = [];
    manager.on("notification", (server, n) => events.push([server, n.kind]));
    const local = await manager.get("local");
    const remote = await manager.get("remote");
    expect(JSON.parse(text(await local.callTool("client_capabilities", {})))).toEqual({
      roots: { listChanged: true },
    });
    expect(JSON.parse(text(await remote.callTool("client_capabilities", {})))).toEqual({});
    await local.callTool("notify_all", {});
    await remote.callTool("notify_all", {});
    // Five notifications and, since every call asks for progress, two progress updates.
    expect(events.filter(([server]) => server === "local")).toHaveLength(7);
    expect(events.filter(([server]) => server === "remote")).toHaveLength(7);
    expect(events[0]).toEqual(["local", "tools/list_changed"]);
    expect(JSON.parse(text(await local.callTool("list_roots", {})))).toEqual({
      roots: [{ uri: "file:///local" }],
    });
    expect(asked).toEqual(["local"]);
    await manager.notifyRootsChanged();
    expect(text(await local.callTool("roots_changed_count", {}))).toBe("1");
    expect(text(await remote.callTool("roots_changed_count", {}))).toBe("0"); // no roots declared there
  });
});

describe("ConnectionManager.replace", () => {
  it("keeps unchanged servers, closes removed ones, reconnects changed ones and adds new ones", async () => {
    await using dir = await createTempDir();
    const env = { FIXTURE_PID_DIR: dir.path };
    const keep = fixtureStdio("keep", env);
    const change = fixtureStdio("change", { ...env, FIXTURE_NAME: "before" });
    const gone = fixtureStdio("gone", env);
    manager = new ConnectionManager([keep, change, gone], { connect: connectWith() });
    const statuses: ServerStatus[] = [];
    manager.on("status", (s) => statuses.push(s));
    const [kept, changed, removed] = await Promise.all([
      manager.get("keep"),
      manager.get("change"),
      manager.get("gone"),
    ]);
    expect(changed.serverVersion?.name).toBe("before");

    const movedKeep = { ...keep, source: { file: "elsewhere.json", key: "mcpServers.keep" } };
    const added = fixtureStdio("added", env, { lifecycle: "eager" });
    const report = await manager.replace([
      movedKeep,
      fixtureStdio("change", { ...env, FIXTURE_NAME: "after" }),
      added,
    ]);

    expect(report).toEqual({ added: ["added"], removed: ["gone"], redefined: ["change"], toggled: [] });

    expect(manager.names()).toEqual(["keep", "change", "added"]);
    expect(await manager.get("keep")).toBe(kept);
    expect(kept.closed).toBe(false);
    expect(manager.definition("keep")?.source.file).toBe("elsewhere.json");
    expect(removed.closed).toBe(true);
    expect(await waitForExit([removed.pid!])).toEqual([]);
    expect(statuses).toContainEqual({ name: "gone", state: "not-connected", removed: true });
    expect((await failure(manager.get("gone"))).code).toBe("unknown_server");
    expect(changed.closed).toBe(true);
    expect(manager.status().find((s) => s.name === "change")?.state).toBe("not-connected");
    const fresh = await manager.get("change");
    expect(fresh.serverVersion?.name).toBe("after");
    expect(fresh.pid).not.toBe(changed.pid);
    // An eager newcomer is connected by the time replace resolves.
    expect(manager.status().find((s) => s.name === "added")?.state).toBe("connected");
    expect(await recordedPids(dir.path)).toHaveLength(5);
  });

  it("disables and re-enables a server", async () => {
    const server = fixtureStdio("toggle", {}, { lifecycle: "keep-alive" });
    manager = new ConnectionManager([server], { connect: connectWith() });
    await manager.start();
    const first = await manager.get("toggle");
    const states: string[] = [];
    manager.on("status", (s) => states.push(s.state));

    const off = await manager.replace([{ ...server, disabled: true }]);
    expect(off).toEqual({ added: [], removed: [], redefined: [], toggled: ["toggle"] });
    expect(first.closed).toBe(true);
    expect(manager.status()).toEqual([{ name: "toggle", state: "disabled" }]);
    expect((await failure(manager.get("toggle"))).code).toBe("server_disabled");

    expect((await manager.replace([server])).toggled).toEqual(["toggle"]);
    // keep-alive: connected again at once, not on next use.
    expect(manager.status()).toEqual([{ name: "toggle", state: "connected", connectMs: expect.any(Number) }]);
    expect(states).toEqual(["disabled", "not-connected", "connecting", "connected"]);
    const again = await manager.get("toggle");
    expect(again).not.toBe(first);
    expect((await again.callTool("echo", { text: "back" })).content).toEqual([
      { type: "text", text: "back" },
    ]);
  });

  it("keeps the connection when only provenance changed, and takes a richer definition type as is", async () => {
    /** A caller's own definition type, as config's `ConfiguredServer`. */
    interface TeamServer extends ServerDefinition {
      scope: "user" | "project";
      layers: Provenance[];
      team: string;
    }
    const server: TeamServer = {
      ...fixtureStdio("shared"),
      scope: "user",
      layers: [{ file: "user.json", key: "mcpServers.shared" }],
      team: "infra",
    };
    const seen: string[] = [];
    const team = new ConnectionManager([server], {
      connect: (d, signal) => {
        seen.push(d.team);
        return connectWith()(d, signal);
      },
    });
    try {
      const first = await team.get("shared");
      const moved: TeamServer = {
        ...server,
        source: { file: "project.json", key: "mcpServers.shared" },
        scope: "project",
        layers: [...server.layers, { file: "project.json", key: "mcpServers.shared" }],
      };
      const report = await team.replace([moved]);
      expect(report).toEqual({ added: [], removed: [], redefined: [], toggled: [] });
      expect(await team.get("shared")).toBe(first);
      expect(first.closed).toBe(false);
      expect(team.definition("shared")?.scope).toBe("project");

      const retagged = await team.replace([{ ...moved, team: "search" }]);
      expect(retagged.redefined).toEqual(["shared"]);
      expect(first.closed).toBe(true);
      await team.get("shared");
      expect(seen).toEqual(["infra", "search"]);
    } finally {
      await team.shutdown();
    }
  });
});
