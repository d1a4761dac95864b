/**
 * Timeouts that fit interactive work, in real Pi (`--mode rpc`, both lines)
 * against server-everything over stdio with a short `requestTimeoutMs`:
 * 1. a form answered only after the request timeout has passed still
 *    completes the call — the user's time never counts;
 * 2. a long tool that reports progress runs past `requestTimeoutMs` (progress
 *    restarts it), and its progress shows on Pi's status line, cleared at the end.
 * The slow answer is held until the timeout's moment is seen to have passed
 * since the dialog appeared (which is after the call began): no race.
 */
import { type ScriptStep, serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it, vi } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject } from "../../src/pi-project.js";
import { type RpcMessage, runRpcPrompt, type UiRequest } from "../../src/rpc-messages.js";

// Short, yet above what connecting server-everything takes on a busy machine (the handshake has this timeout too).
const TIMEOUT_MS = 2000;

const call = (tool: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool: `everything_${tool}`, args } },
});

describe.each(piHosts())("$label", (host) => {
  const project = (steps: ScriptStep[]) =>
    createPiProject({
      host,
      adapterConfig: {
        mcpServers: {
          everything: {
            command: process.execPath,
            args: [serverEverythingPath],
            requestTimeoutMs: TIMEOUT_MS,
          },
        },
      },
      steps: [...steps, { text: "Done." }],
    });

  it("--mode rpc: a form answered after the request timeout completes the call", async () => {
    await using pi = await project([call("trigger-elicitation-request")]);
    let heldFor = 0;
    const answer = async (request: UiRequest) => {
      if (request.title.startsWith('MCP server "everything" asks for input:')) {
        // The user reads the form for longer than the request timeout.
        const shownAt = Date.now();
        await vi.waitUntil(() => Date.now() - shownAt > TIMEOUT_MS + 250, { timeout: 30_000, interval: 20 });
        heldFor = Date.now() - shownAt;
        return "Fill in the form";
      }
      if (request.title.startsWith("Send these answers")) return "Send";
      if (request.method === "confirm") return true;
      if (request.title.includes("· String (required)")) return "Ada Lovelace";
      if (request.title.includes("· String with email format")) return "ada@example.com";
      if (request.title.includes("· Integer")) return "7";
      if (request.method === "input") return "";
      if (request.options?.includes("Done")) return "Done";
      return request.options?.[0];
    };
    await runRpcPrompt(pi.rpc(), "Go.", answer);
    expect(heldFor).toBeGreaterThan(TIMEOUT_MS);
    const [result] = toolResultTexts(pi.model.requests[1]!);
    expect(result).toContain("✅ User provided the requested information!");
    expect(result).toContain("- Name: Ada Lovelace");
    expect(result).not.toContain("timed out");
  });

  it("--mode rpc: a tool reporting progress runs past requestTimeoutMs, its progress on the status line", async () => {
    // 2.4 s in all, a progress report every 0.4 s: longer than the timeout, never silent for long.
    await using pi = await project([call("trigger-long-running-operation", { duration: 2.4, steps: 6 })]);
    const statuses: RpcMessage[] = [];
    await runRpcPrompt(pi.rpc(), "Go.", () => undefined, {
      onMessage: (message) => {
        if (message.method === "setStatus" && String(message.statusKey).includes(":progress:")) {
          statuses.push(message);
        }
      },
    });
    const [result] = toolResultTexts(pi.model.requests[1]!);
    expect(result).toContain("Long running operation completed. Duration: 2.4 seconds, Steps: 6.");
    expect(statuses[0]).toMatchObject({
      statusKey: "pi-mcp-adapter:progress:everything/trigger-long-running-operation",
      statusText: "MCP everything/trigger-long-running-operation 1/6",
    });
    expect(statuses.length).toBeGreaterThanOrEqual(2);
    expect(statuses.at(-1)?.statusText).toBeUndefined();
  });
});
