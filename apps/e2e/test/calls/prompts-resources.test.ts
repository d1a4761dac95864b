/**
 * Prompts, resources and roots end to end, on both Pi lines, against the
 * published server-everything over stdio.
 *
 * A first (json-mode) run has the model search for the static
 * `architecture.md` resource and read it through the proxy by the name search
 * shows, read a text and a binary template resource with arguments, and call
 * `get-roots-list`. That run also caches the server's listing, so a second
 * Pi (rpc mode) registers the prompt commands from its startup snapshot:
 * `/mcp__everything__args-prompt` with key=value and positional arguments
 * reaches the model as a user message once the client answers the preview
 * (a select in RPC mode) with Use prompt, and a missing required argument is
 * refused with the usage; in json mode a prompt command's turn completes
 * before Pi exits. A listening extension checks the status snapshots'
 * documented fields, resource counts included. (Argument completion needs Pi's editor; it is
 * tested through the command API in pi-mcp-adapter's prompt-commands test.)
 */
import { readFileSync, realpathSync, statSync } from "node:fs";

import type { ChatRequest } from "@pi-mcp-adapter/test-kit";
import { serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { writeStatusListener } from "../../src/status-listener.js";

const call = (tool: string, args: Record<string, unknown> = {}) => ({
  toolCall: { name: "mcp", arguments: { tool, args } },
});
const lastToolResult = (request: ChatRequest) => toolResultTexts(request).at(-1) ?? "";
const lastUserText = (request: ChatRequest | undefined) => {
  const content = request?.messages.filter((m) => m.role === "user").at(-1)?.content;
  if (typeof content === "string") return content;
  return Array.isArray(content) ? content.map((p) => (p as { text?: string }).text ?? "").join("") : "";
};

/** A Pi in rpc mode; `prompt` sends one line and resolves on the first message `until` accepts. */
function rpcSession(project: PiProject) {
  const child = project.rpc();
  const seen: Record<string, unknown>[] = [];
  const waiters: {
    until: (m: Record<string, unknown>) => boolean;
    resolve: (m: Record<string, unknown>) => void;
  }[] = [];
  let stderr = "";
  let buffered = "";
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
  });
  child.stdout.on("data", (data: Buffer) => {
    buffered += data.toString("utf8");
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (!line) continue;
      const message = JSON.parse(line) as Record<string, unknown>;
      seen.push(message);
      // A prompt command's preview (a select in RPC mode): use the prompt.
      if (
        message.type === "extension_ui_request" &&
        message.method === "select" &&
        (message.options as string[] | undefined)?.includes("Use prompt")
      ) {
        child.stdin.write(
          `${JSON.stringify({ type: "extension_ui_response", id: message.id, value: "Use prompt" })}\n`,
        );
      }
      for (const waiter of [...waiters]) {
        if (waiter.until(message)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(message);
        }
      }
    }
  });
  let ids = 0;
  return {
    seen,
    prompt(message: string, until: (m: Record<string, unknown>) => boolean) {
      const done = new Promise<Record<string, unknown>>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no answer to ${message}:\n${stderr}`)), 60_000);
        waiters.push({
          until,
          resolve: (m) => {
            clearTimeout(timer);
            resolve(m);
          },
        });
      });
      child.stdin.write(`${JSON.stringify({ id: `p${++ids}`, type: "prompt", message })}\n`);
      return done;
    },
    [Symbol.dispose]: () => child.kill(),
  };
}

describe.each(piHosts())("$label", (host) => {
  it("resources through the proxy, roots, then prompt commands from the cached listing", async () => {
    // What the blob read's spill file held, read while Pi still runs (the session removes it at exit).
    const captured: { blob?: { text: string; mode: number; dirMode: number } } = {};
    await using project = await createPiProject({
      host,
      adapterConfig: {
        mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      },
      steps: [
        { toolCall: { name: "mcp", arguments: { search: "architecture" } } },
        call("everything_resource_architecture_md"),
        call("everything_resource_dynamic_text_resource", { resourceId: "5" }),
        call("everything_resource_dynamic_blob_resource", { resourceId: "2" }),
        (request) => {
          const file = /saved to (\/[^\s\]]+)/.exec(lastToolResult(request))?.[1];
          if (file) {
            captured.blob = {
              text: readFileSync(file, "utf8"),
              mode: statSync(file).mode & 0o777,
              dirMode: statSync(file.slice(0, file.lastIndexOf("/"))).mode & 0o777,
            };
          }
          return call("everything_get-roots-list");
        },
        { text: "Read them all." },
      ],
    });
    const { model } = project;
    // A second extension that only listens, as a status-bar extension would.
    const listener = await writeStatusListener(project.join());
    const run = await project.run("Read the architecture document and a few resources.", {
      extraArgs: ["-e", listener.extension],
    });
    expect(run.code, run.stderr).toBe(0);
    expect(model.requests).toHaveLength(6);
    const [, afterSearch, afterStatic, afterText, afterBlob, afterRoots] = model.requests;
    expect(lastToolResult(afterSearch!)).toContain("everything_resource_architecture_md [resource]");
    expect(lastToolResult(afterStatic!)).toContain(
      "[resource demo://resource/static/document/architecture.md (text/markdown)]\n# Everything Server",
    );
    expect(lastToolResult(afterText!)).toMatch(/\nResource 5: This is a plaintext resource created at /);
    expect(lastToolResult(afterBlob!)).toContain("demo://resource/dynamic/blob/2");
    const { blob } = captured;
    expect(blob, lastToolResult(afterBlob!)).toBeDefined();
    expect(blob?.text).toMatch(/^Resource 2: This is a base64 blob created at /);
    expect(blob?.mode).toBe(0o600);
    expect(blob?.dirMode).toBe(0o700);
    const roots = lastToolResult(afterRoots!);
    const dirs = [project.dir, realpathSync(project.dir)];
    expect(
      dirs.some((dir) => roots.includes(`URI: file://${dir}\n`)),
      roots,
    ).toBe(true);

    // Status snapshots: exactly the documented fields, with resource counts once the server is listed.
    const snapshots = await listener.snapshots();
    const listed = snapshots.find((s) => s.servers[0]?.resourceCount !== undefined);
    const tools = listed?.servers[0]?.toolCount ?? 0;
    const resources = listed?.servers[0]?.resourceCount ?? 0;
    expect(tools).toBeGreaterThan(5);
    expect(resources).toBeGreaterThan(5);
    expect(listed).toEqual({
      totalTools: tools,
      totalResources: resources,
      connectedCount: 1,
      disabledCount: 0,
      servers: [
        {
          name: "everything",
          status: "connected",
          toolCount: tools,
          disabled: false,
          resourceCount: resources,
        },
      ],
    });
    expect(snapshots.at(-1)).toEqual({
      totalTools: 0,
      totalResources: 0,
      connectedCount: 0,
      disabledCount: 0,
      servers: [],
    });

    // A second Pi: the prompt commands come from the listing the first run cached.
    const before = model.requests.length;
    {
      using pi = rpcSession(project);
      const agentEnd = (m: Record<string, unknown>) => m.type === "agent_end";
      await pi.prompt("/mcp__everything__args-prompt city=Paris state=France", agentEnd);
      expect(lastUserText(model.requests[before])).toBe("What's weather in Paris, France?");
      // The client saw the preview first (RPC mode has dialogs), the prompt's text in its title.
      const preview = pi.seen.find((m) => m.type === "extension_ui_request" && m.method === "select");
      expect(preview?.title).toBe(
        "/mcp__everything__args-prompt: what the prompt adds to the conversation\n\nWhat's weather in Paris, France?",
      );
      await pi.prompt(`/mcp__everything__args-prompt "Des Moines"`, agentEnd);
      expect(lastUserText(model.requests.at(-1))).toBe("What's weather in Des Moines?");
      const refused = await pi.prompt(
        "/mcp__everything__args-prompt state=Iowa",
        (m) => m.type === "extension_ui_request" && m.method === "notify",
      );
      expect(refused.message).toBe(
        "Prompt args-prompt needs argument city. Usage: /mcp__everything__args-prompt <city> [state] (or by name: city=… state=…)",
      );
      expect(model.requests.length).toBe(before + 2);
    }

    // Print (json) mode: Pi stays for the turn the command started before it exits.
    const printed = await project.run("/mcp__everything__args-prompt Rome");
    expect(printed.code, printed.stderr).toBe(0);
    expect(model.requests.length).toBe(before + 3);
    expect(lastUserText(model.requests.at(-1))).toBe("What's weather in Rome?");
  });
});
