/**
 * `complete()`, `subscribeResource()` and `features` against the published
 * server-everything over stdio (SDK v1 path) and a v2 SDK server (2026 path).
 */

import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection, type ServerNotification } from "../../src/index.js";
import { definition, fixtureStdio, v2ServerPath } from "../helpers.js";

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const everything = () =>
  definition({
    name: "everything",
    transport: "stdio",
    command: process.execPath,
    args: [serverEverythingPath],
  });

describe("completion and subscriptions", () => {
  it("reports what server-everything declares", async () => {
    open = await connectServer(everything());
    expect(open.features).toEqual({
      tools: true,
      prompts: true,
      resources: true,
      resourceSubscribe: true,
      completions: true,
      // It says when its tools change (no TTL re-listing for it: listing-freshness.ts in runtime).
      toolsListChanged: true,
      // server-everything offers no MCP skills (SEP-2640).
      skills: false,
    });
  });

  it("completes a prompt argument, narrowed by an earlier argument in context", async () => {
    open = await connectServer(everything());
    const departments = await open.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "department", value: "S" },
    });
    expect(departments.values).toEqual(["Sales", "Support"]);
    const names = await open.complete({
      ref: { type: "ref/prompt", name: "completable-prompt" },
      argument: { name: "name", value: "" },
      context: { department: "Engineering" },
    });
    expect(names.values).toEqual(["Alice", "Bob", "Charlie"]);
  });

  it("completes a resource template variable", async () => {
    open = await connectServer(everything());
    const good = await open.complete({
      ref: { type: "ref/resource", uri: "demo://resource/dynamic/text/{resourceId}" },
      argument: { name: "resourceId", value: "7" },
    });
    expect(good.values).toEqual(["7"]);
  });

  it("subscribes to a resource and relays its resources/updated", async () => {
    open = await connectServer(everything());
    const uri = "demo://resource/static/document/architecture.md";
    const updated = new Promise<ServerNotification>((resolve) => {
      open?.onNotification((n) => {
        if (n.kind === "resources/updated") resolve(n);
      });
    });
    expect(await open.subscribeResource(uri)).toBe(true);
    // server-everything sends updates for subscribed URIs once its simulated updates are on.
    await open.callTool("toggle-subscriber-updates", {});
    expect(await updated).toEqual({ kind: "resources/updated", uri });
  }, 20_000);

  it("completes over 2026-07-28 (SDK v2) too", async () => {
    open = await connectServer(
      definition({
        name: "v2",
        transport: "stdio",
        command: process.execPath,
        args: [v2ServerPath],
        protocol: "2026-07-28",
      }),
    );
    expect(open.protocolVersion).toBe("2026-07-28");
    expect(open.features).toMatchObject({ prompts: true, completions: true });
    const languages = await open.complete({
      ref: { type: "ref/prompt", name: "review" },
      argument: { name: "language", value: "ja" },
    });
    expect(languages.values).toEqual(["javascript"]);
  });

  it("asks nothing of a server without completions or subscriptions", async () => {
    open = await connectServer(fixtureStdio("plain"));
    expect(open.features.completions).toBe(false);
    expect(open.features.resourceSubscribe).toBe(false);
    const none = await open.complete({
      ref: { type: "ref/prompt", name: "x" },
      argument: { name: "a", value: "" },
    });
    expect(none).toEqual({ values: [] });
    expect(await open.subscribeResource("file:///x")).toBe(false);
  });
});
