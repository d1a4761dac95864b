/**
 * `parseScriptParams` (the `./tool` entry a host checks the model's
 * arguments with): each bad argument is a `ScriptArgumentsError` whose code
 * names the field, and whose message says what was expected.
 */
import { describe, expect, it } from "vitest";
import { parseScriptParams, ScriptArgumentsError } from "../src/script-tool.js";

function thrownBy(raw: unknown): unknown {
  try {
    parseScriptParams(raw);
  } catch (error) {
    return error;
  }
  throw new Error(`parseScriptParams accepted ${JSON.stringify(raw)}`);
}

describe("parseScriptParams", () => {
  it("accepts code with and without a deadline", () => {
    expect(parseScriptParams({ code: "return 1" })).toEqual({ code: "return 1" });
    expect(parseScriptParams({ code: "return 1", timeoutMs: 500 })).toEqual({
      code: "return 1",
      timeoutMs: 500,
    });
  });

  it.each([
    ["not an object", "return 1", "invalid_arguments", /arguments must be an object/],
    ["an array", ["return 1"], "invalid_arguments", /arguments must be an object/],
    ["no code", {}, "invalid_code", /code must be a non-empty string/],
    ["blank code", { code: "  " }, "invalid_code", /code must be a non-empty string/],
    [
      "a fractional deadline",
      { code: "x", timeoutMs: 1.5 },
      "invalid_timeout",
      /timeoutMs must be an integer from 1 to/,
    ],
    [
      "a deadline of 0",
      { code: "x", timeoutMs: 0 },
      "invalid_timeout",
      /timeoutMs must be an integer from 1 to/,
    ],
  ])("refuses %s with a ScriptArgumentsError naming the field", (_what, raw, code, message) => {
    const error = thrownBy(raw);
    expect(error).toBeInstanceOf(ScriptArgumentsError);
    expect(error).toMatchObject({ name: "ScriptArgumentsError", code });
    expect((error as Error).message).toMatch(message);
  });
});
