import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { hugeAnswerServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { agentDirPerTest, firstText, openSession } from "./daemon-fixtures.js";

const agent = agentDirPerTest();

const longRun = (duration: number, steps: number) => ({
  name: "trigger-long-running-operation",
  arguments: { duration, steps },
});

describe("server→client requests and notifications on a shared server", () => {
  it("send an elicitation only to the session whose call is in flight", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const result = await b.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(b.elicitations).toHaveLength(1);
    expect(a.elicitations).toHaveLength(0);
    expect(JSON.stringify(result)).toContain("beta");
    expect(result.isError).toBeFalsy();
  });

  it("refuse an elicitation when two sessions have calls in flight (the daemon cannot tell whose it is)", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    let firstProgress!: () => void;
    const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
    const long = b.client.callTool(longRun(2, 4), undefined, { onprogress: () => firstProgress() });
    await progressed;
    const refused = await a.client.callTool({ name: "trigger-elicitation-request", arguments: {} });
    expect(refused.isError).toBe(true);
    expect(firstText(refused)).toContain("cannot tell which session elicitation/create is for");
    expect(a.elicitations).toHaveLength(0);
    expect(b.elicitations).toHaveLength(0);
    expect(firstText(await long)).toContain("Long running operation completed");
  });

  it("deliver progress only to the session that asked for it", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const seenA: number[] = [];
    const seenB: number[] = [];
    await Promise.all([
      a.client.callTool(longRun(0.4, 2), undefined, { onprogress: (p) => void seenA.push(p.total ?? -1) }),
      b.client.callTool(longRun(0.6, 3), undefined, { onprogress: (p) => void seenB.push(p.total ?? -1) }),
    ]);
    // (The SDK client drops the last step's progress, which arrives with the answer, on stdio too.)
    expect(seenA.length).toBeGreaterThan(0);
    expect(seenB.length).toBeGreaterThan(1);
    expect(new Set(seenA)).toEqual(new Set([2]));
    expect(new Set(seenB)).toEqual(new Set([3]));
  });

  it("cancel one session's call at the server without touching the other's", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const controller = new AbortController();
    let firstProgress!: () => void;
    const progressed = new Promise<void>((resolve) => (firstProgress = resolve));
    const cancelled = a.client.callTool(longRun(3, 6), undefined, {
      signal: controller.signal,
      onprogress: () => firstProgress(),
    });
    const other = b.client.callTool(longRun(0.4, 2));
    await progressed;
    controller.abort("changed my mind");
    await expect(cancelled).rejects.toThrow(/changed my mind|abort/i);
    expect(firstText(await other)).toContain("Steps: 2");
    // The server still answers the session whose call was cancelled.
    expect(firstText(await a.client.callTool({ name: "echo", arguments: { message: "still here" } }))).toBe(
      "Echo: still here",
    );
  });

  it("send resources/updated only to the sessions subscribed to that URI", async () => {
    const a = await openSession(agent.path, "alpha");
    const b = await openSession(agent.path, "beta");
    const updates = { alpha: [] as string[], beta: [] as string[] };
    a.client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updates.alpha.push(n.params.uri),
    );
    b.client.setNotificationHandler(
      ResourceUpdatedNotificationSchema,
      (n) => void updates.beta.push(n.params.uri),
    );
    const uri = (await a.client.listResources()).resources[0]?.uri as string;
    await a.client.subscribeResource({ uri });
    await b.client.subscribeResource({ uri });
    // alpha leaves the subscription; beta still holds it at the server.
    await a.client.unsubscribeResource({ uri });
    // Turning updates on sends one at once, then every 5 s.
    await b.client.callTool({ name: "toggle-subscriber-updates", arguments: {} });
    await expect.poll(() => updates.beta).toContain(uri);
    // A round trip on alpha: an update sent its way would have arrived before this answer.
    await a.client.callTool({ name: "echo", arguments: { message: "sync" } });
    expect(updates.alpha).toEqual([]);
  });

  it("fail a call whose answer is over the size bound at once, and keep serving every session", async () => {
    const spec = {
      command: process.execPath,
      args: [hugeAnswerServerPath],
      env: { PATH: process.env.PATH ?? "" },
    };
    const a = await openSession(agent.path, "alpha", { spec, serverName: "huge" });
    const b = await openSession(agent.path, "beta", { spec, serverName: "huge" });
    await expect(a.client.callTool({ name: "huge", arguments: { mib: 65 } })).rejects.toThrow(
      /answer too large: 65(\.\d)? MiB from shared server "huge" \(limit 64 MiB\)/,
    );
    expect(firstText(await b.client.callTool({ name: "echo", arguments: { text: "fine" } }))).toBe("fine");
    expect(firstText(await a.client.callTool({ name: "echo", arguments: { text: "still" } }))).toBe("still");
  });
});
