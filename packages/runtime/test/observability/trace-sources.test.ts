import { readFile } from "node:fs/promises";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { createClientFeaturesServer, createTempDir, serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { type ClientHandlers, connectServer } from "@pi-mcp-adapter/transport";
import { describe, expect, it } from "vitest";
import { SessionTrace } from "../../src/observability/trace-observer.js";
import { tracedHandlers } from "../../src/observability/trace-sources.js";

const SECRET_ANSWER = "Ada-Lovelace-Secret";
const SECRET_COMPLETION = "completion-body-Q7";

describe("traced server→client requests", () => {
  it("records each elicitation (with the user's action) and sampling request, never their content", async () => {
    await using dir = await createTempDir();
    await using http = await serveStreamableHttp(() => createClientFeaturesServer());
    const trace = new SessionTrace({ cwd: dir.path, file: "t.jsonl" });
    const handlers: ClientHandlers = {
      elicitation: async () => ({ action: "accept", content: { name: SECRET_ANSWER } }),
      sampling: async () => ({
        role: "assistant",
        content: { type: "text", text: SECRET_COMPLETION },
        model: "test-model",
      }),
    };
    const definition: ServerDefinition = {
      name: "features",
      transport: "http",
      url: http.url,
      lifecycle: "lazy",
      protocol: "legacy",
      source: { file: "/p/.mcp.json", key: "mcpServers.features" },
    };
    const connection = await connectServer(definition, { handlers: tracedHandlers(handlers, trace) });
    try {
      const elicited = await connection.callTool("elicit", { message: "Your name?" });
      expect(JSON.stringify(elicited)).toContain(SECRET_ANSWER);
      const sampled = await connection.callTool("sample", { prompt: "secret prompt text" });
      expect(JSON.stringify(sampled)).toContain(SECRET_COMPLETION);
    } finally {
      await connection.close();
      trace.close();
    }
    const text = await readFile(dir.join("t.jsonl"), "utf8");
    const events = text
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events).toContainEqual(
      expect.objectContaining({ event: "elicitation", server: "features", outcome: "accept" }),
    );
    expect(events).toContainEqual(
      expect.objectContaining({ event: "sampling", server: "features", outcome: "ok" }),
    );
    for (const secret of [SECRET_ANSWER, SECRET_COMPLETION, "secret prompt", "Your name"]) {
      expect(text).not.toContain(secret);
    }
  });

  it("adds no handler a host does not offer", () => {
    const trace = { record: () => {} } as unknown as SessionTrace;
    expect(tracedHandlers({}, trace)).toEqual({});
    expect(tracedHandlers(undefined, trace)).toBeUndefined();
  });
});
