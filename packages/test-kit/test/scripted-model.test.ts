import { describe, expect, it } from "vitest";
import { startScriptedModel, toolResultTexts } from "../src/index.js";

async function post(url: string, body: unknown): Promise<string> {
  const response = await fetch(`${url}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  return response.text();
}

describe("startScriptedModel", () => {
  it("answers with scripted tool calls and text, and records each request", async () => {
    await using model = await startScriptedModel([
      { toolCall: { name: "mcp", arguments: { search: "x" } } },
      (request) => ({ text: `saw ${toolResultTexts(request).join(",")}` }),
    ]);
    const first = await post(model.baseUrl, { model: "m", messages: [{ role: "user", content: "hi" }] });
    expect(first).toContain('"tool_calls"');
    expect(first).toContain('"arguments":"{\\"search\\":\\"x\\"}"');
    expect(first.trim().endsWith("data: [DONE]")).toBe(true);

    const second = await post(model.baseUrl, {
      model: "m",
      messages: [
        { role: "user", content: "hi" },
        { role: "tool", tool_call_id: "call_1", content: [{ type: "text", text: "result-1" }] },
      ],
    });
    expect(second).toContain('"content":"saw result-1"');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.messages[0]?.content).toBe("hi");
  });
});
