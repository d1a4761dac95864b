/**
 * Tool calls on a stdio connection go below SDK v1's client (tool-call-channel.ts); what the client
 * checked itself on a call still holds, against a real server process: a tool with an output schema
 * must answer with structured content, a tool that requires a task is refused unsent on a server
 * without tasks, and a connection that has not listed tools knows neither (as the client did not).
 */
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { connectServer, type ServerConnection } from "../../src/index.js";
import { definition, failure, text } from "../helpers.js";

const serverPath = fileURLToPath(new URL("../fixtures/checked-tools-server.mjs", import.meta.url));
const checkedTools = () =>
  definition({ name: "checked", transport: "stdio", command: process.execPath, args: [serverPath] });

let open: ServerConnection | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

const calls = () => open!.stderrTail(50).filter((line) => line.startsWith("called "));

describe("tool calls below the SDK client", () => {
  it("calls a plain tool, and the server sees each call once", async () => {
    open = await connectServer(checkedTools());
    await open.listTools();
    expect(text(await open.callTool("plain", {}))).toBe("ran plain");
    expect(text(await open.callTool("plain", {}))).toBe("ran plain");
    await expect.poll(calls).toEqual(["called plain string", "called plain string"]);
  });

  it("a listed tool with an output schema that answers without structured content fails", async () => {
    open = await connectServer(checkedTools());
    await open.listTools();
    const error = await failure(open.callTool("typed", {}));
    expect(error.code).toBe("request_failed");
    expect(error.message).toContain("checked: tools/call typed failed");
    expect(error.message).toContain("Tool typed has an output schema but did not return structured content");
  });

  it("a listed tool that requires a task is refused unsent by a server without tasks", async () => {
    open = await connectServer(checkedTools());
    await open.listTools();
    const error = await failure(open.callTool("needs-task", {}));
    expect(error.message).toContain('Tool "needs-task" requires task-based execution');
    expect(text(await open.callTool("plain", {}))).toBe("ran plain");
    await expect.poll(calls).toEqual(["called plain string"]);
  });

  it("a connection that has not listed tools calls both plainly", async () => {
    open = await connectServer(checkedTools());
    expect(text(await open.callTool("typed", {}))).toBe("ran typed");
    expect(text(await open.callTool("needs-task", {}))).toBe("ran needs-task");
  });
});
