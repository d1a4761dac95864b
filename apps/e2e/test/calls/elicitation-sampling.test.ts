/**
 * Elicitation and sampling in real Pi against server-everything over stdio,
 * on both Pi lines (both give extensions `ctx.model` and `ctx.modelRegistry`,
 * and forward dialogs in `--mode rpc`, so no case is 1.6-only):
 * 1. `--mode json` + `samplingAutoApprove`: `trigger-sampling-request` reaches
 *    the scripted model through Pi's own provider and credentials, and the
 *    completion comes back in the tool result.
 * 2. `--mode rpc`: the sampling approval is an extension UI request; Deny
 *    reaches the server as an error and the model is never asked.
 * 3. `--mode rpc`: `trigger-elicitation-request` becomes form dialogs, the
 *    answers reach the server; a dismissed dialog is `cancel`.
 * 4. `--mode rpc`: `trigger-url-elicitation` asks consent showing host and URL,
 *    then says the server waits for the browser step (until the call ends);
 *    its `-32042` error path tells the model to retry, and the retry works.
 *    With a display (`DISPLAY` set, an `xdg-open` on PATH that records what it
 *    is given), the consent offers "Open in browser" and the URL is opened.
 * 5. `--mode json` without auto-approval: neither capability is declared, the
 *    server does not offer those tools, and nothing hangs.
 */
import { chmod, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { type ScriptStep, serverEverythingPath, toolResultTexts } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { type PiHost, piHosts } from "../../src/pi-hosts.js";
import { createPiProject, type PiProject } from "../../src/pi-project.js";
import { runRpcPrompt, type UiAnswer, type UiRequest } from "../../src/rpc-messages.js";

const call = (tool: string, args: Record<string, unknown> = {}): ScriptStep => ({
  toolCall: { name: "mcp", arguments: { tool: `everything_${tool}`, args } },
});

/** A project whose user-level config has server-everything (stdio) and `settings`. */
function everythingProject(host: PiHost, steps: (ScriptStep | (() => ScriptStep))[], settings = {}) {
  return createPiProject({
    host,
    adapterConfig: {
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      settings,
    },
    steps,
  });
}

/** One prompt in RPC mode; each dialog is answered by `answer`. Returns every dialog shown. */
const runRpc = (project: PiProject, answer: (request: UiRequest) => UiAnswer) =>
  runRpcPrompt(project.rpc(), "Go.", answer);

describe.each(piHosts())("$label", (host) => {
  it("--mode json + samplingAutoApprove: the sampling request reaches the scripted model through Pi's provider", async () => {
    await using project = await everythingProject(
      host,
      [
        call("trigger-sampling-request", { prompt: "write a haiku", maxTokens: 40 }),
        { text: "Autumn moonlight, a worm digs silently." },
        { text: "Done." },
      ],
      { samplingAutoApprove: true },
    );
    const run = await project.run("Sample something.");
    expect(run.code, run.stderr).toBe(0);
    const { requests, authorizations } = project.model;
    expect(requests).toHaveLength(3);
    // The sampling request: the server's system prompt and message, the session's model, Pi's credentials.
    const sampling = requests[1]!;
    expect(sampling.model).toBe("fake-model");
    expect(sampling.messages).toEqual([
      { role: "system", content: "You are a helpful test server." },
      { role: "user", content: "Resource trigger-sampling-request context: write a haiku" },
    ]);
    expect(sampling.tools ?? []).toEqual([]);
    expect(authorizations[1]).toBe("Bearer x");
    const [result] = toolResultTexts(requests[2]!);
    expect(result).toContain("LLM sampling result:");
    expect(result).toContain("Autumn moonlight, a worm digs silently.");
    expect(result).toContain('"model": "fake/fake-model"');
  });

  it("--mode rpc: the sampling approval is an extension UI dialog; Deny reaches the server as an error", async () => {
    await using project = await everythingProject(host, [
      call("trigger-sampling-request", { prompt: "anything" }),
      { text: "Denied, fine." },
    ]);
    const shown = await runRpc(project, () => "Deny");
    expect(shown).toHaveLength(1);
    expect(shown[0]!.options).toEqual(["Allow once", "Allow for session", "Deny"]);
    expect(shown[0]!.title).toContain('MCP server "everything" asks to use your model (sampling). Allow?');
    expect(shown[0]!.title).toContain("System prompt: You are a helpful test server.");
    expect(shown[0]!.title).toContain("[user] Resource trigger-sampling-request context: anything");
    // The model was never asked for the completion: two agent turns only.
    expect(project.model.requests).toHaveLength(2);
    const [result] = toolResultTexts(project.model.requests[1]!);
    expect(result).toContain("the user denied the sampling request");
  });

  it("--mode rpc: the elicitation form becomes dialogs and the answers reach the server; dismissing is cancel", async () => {
    await using project = await everythingProject(host, [
      call("trigger-elicitation-request"),
      call("trigger-elicitation-request"),
      { text: "Done." },
    ]);
    let round = 1;
    const shown = await runRpc(project, (request) => {
      if (request.title.startsWith('MCP server "everything" asks for input:')) return "Fill in the form";
      // Second round: dismiss the first field.
      if (round === 2) return undefined;
      if (request.title.startsWith("Send these answers")) {
        round = 2;
        return "Send";
      }
      if (request.method === "confirm") return true;
      if (request.title.includes("· String (required)")) return "Ada Lovelace";
      if (request.title.includes("· String with email format")) return "ada@example.com";
      if (request.title.includes("· Integer")) return "7";
      if (request.method === "input") return ""; // the default, or left empty
      if (request.options?.includes("Done")) return "Done"; // multi-selects keep their defaults
      return request.options?.[0]; // single selects: the default comes first
    });
    const results = toolResultTexts(project.model.requests[2]!);
    expect(results[0]).toContain("✅ User provided the requested information!");
    expect(results[0]).toContain("- Name: Ada Lovelace");
    expect(results[0]).toContain("- Email: ada@example.com");
    expect(results[0]).toContain("- Agreed to terms: true");
    expect(results[0]).toContain("- Favorite Integer: 7");
    expect(results[0]).toContain('"untitledSingleSelectEnum": "Monica"');
    expect(results[0]).toContain('"firstLine": "It was a dark and stormy night."');
    expect(results[1]).toContain("⚠️ User cancelled the elicitation dialog.");
    expect(results[1]).toContain('"action": "cancel"');
    // Every dialog names the server; the kinds match the field types.
    expect(shown.every((r) => r.title.includes('MCP server "everything"'))).toBe(true);
    expect(shown.filter((r) => r.method === "confirm")).toHaveLength(1);
    expect(shown.find((r) => r.title.includes("· String with email format"))?.method).toBe("input");
    expect(shown.find((r) => r.title.includes("· Titled Single Select Enum"))?.options).toEqual([
      "Superman (default)",
      "Green Lantern",
      "Wonder Woman",
      "(leave empty)",
    ]);
  });

  it("--mode rpc: URL elicitation asks consent showing host and URL; -32042 tells the model to retry", async () => {
    const url = "https://pay.example.com/checkout?order=42";
    await using project = await everythingProject(host, [
      call("trigger-url-elicitation", { url, message: "Pay for order 42" }),
      call("trigger-url-elicitation", { url, errorPath: true }),
      call("trigger-url-elicitation", { url, errorPath: true }),
      { text: "Done." },
    ]);
    const shown = await runRpc(project, (request) => request.options?.[0]);
    // After each consent given during a call, the wait for the browser step (it ends with the call here).
    const waits = shown.filter((r) => r.options?.includes("Stop waiting"));
    expect(waits.map((r) => r.title.split("\n")[0])).toEqual([
      'MCP server "everything" is waiting for you to finish in your browser (pay.example.com).',
      'MCP server "everything" is waiting for you to finish in your browser (pay.example.com).',
    ]);
    const consents = shown.filter((r) => !waits.includes(r));
    expect(consents[0]).toMatchObject({
      method: "select",
      title: `MCP server "everything" asks you to open a web page:\nPay for order 42\nHost: pay.example.com\nURL: ${url}`,
      options: ["I will open it myself", "Decline"],
    });
    // The -32042 prerequisite, then the retried call's own request.
    expect(consents[1]!.title).toContain("Host: modelcontextprotocol.io");
    expect(consents[2]!.title).toContain("Host: pay.example.com");
    expect(consents).toHaveLength(3);
    const results = toolResultTexts(project.model.requests[3]!);
    expect(results[0]).toContain("✅ User completed the URL elicitation flow.");
    expect(results[1]).toContain("needs the user to complete a step in a web browser");
    expect(results[1]).toContain("retry the original call with the same arguments");
    expect(results[2]).toContain("✅ User completed the URL elicitation flow.");
  });

  it("--mode rpc with a display: URL elicitation offers Open in browser, and the browser opener gets the URL", async () => {
    const url = "https://pay.example.com/checkout?order=43";
    await using project = await everythingProject(host, [
      call("trigger-url-elicitation", { url, message: "Pay for order 43" }),
      { text: "Done." },
    ]);
    // The platform's opener on Linux is xdg-open: this one writes down the URL it was asked to open.
    const opened = project.join("opened.txt");
    await writeFile(project.join("xdg-open"), `#!/bin/sh\nprintf '%s' "$1" > '${opened}'\n`);
    await chmod(project.join("xdg-open"), 0o755);
    const env = { DISPLAY: ":99", PATH: `${project.root}:${path.dirname(host.node)}:${process.env.PATH}` };
    const shown = await runRpcPrompt(project.rpc({ env }), "Go.", (request) => request.options?.[0]);
    expect(shown[0]).toMatchObject({
      method: "select",
      title: `MCP server "everything" asks you to open a web page:\nPay for order 43\nHost: pay.example.com\nURL: ${url}`,
      options: ["Open in browser", "Decline"],
    });
    await expect.poll(() => readFile(opened, "utf8").catch(() => ""), { timeout: 20_000 }).toBe(url);
    expect(toolResultTexts(project.model.requests[1]!)[0]).toContain(
      "✅ User completed the URL elicitation flow.",
    );
  });

  it("--mode json without auto-approval: no capability is declared, the tools are not offered, nothing hangs", async () => {
    await using project = await everythingProject(host, [
      call("trigger-sampling-request", { prompt: "x" }),
      call("trigger-elicitation-request"),
      { text: "Done." },
    ]);
    const started = Date.now();
    const run = await project.run("Try them.", { timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    expect(Date.now() - started).toBeLessThan(45_000);
    const { requests } = project.model;
    expect(requests).toHaveLength(3);
    const results = toolResultTexts(requests[2]!);
    for (const [i, tool] of ["trigger-sampling-request", "trigger-elicitation-request"].entries()) {
      // The server registered neither tool for this client.
      expect(results[i]).toContain(`No MCP tool named "everything_${tool}"`);
    }
  });
});
