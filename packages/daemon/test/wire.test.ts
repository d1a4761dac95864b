/**
 * The daemon's hello parser: every hello it cannot read is refused with a
 * `bad_hello` DaemonError naming the field, never echoing a value (a token or
 * an env value may be a secret).
 */
import { describe, expect, it } from "vitest";
import { DaemonError } from "../src/index.js";
import { parseHello } from "../src/wire.js";

const attach = {
  "pi-mcp-daemon": 1,
  token: "secret-token",
  op: "attach",
  name: "fs",
  clientKey: "k",
  idleTimeoutMs: 0,
  spec: { command: "node", args: [], env: { API_KEY: "secret-env" } },
};

describe("parseHello", () => {
  it("reads a well-formed attach, status and stop hello", () => {
    expect(parseHello(JSON.stringify(attach))).toMatchObject({ op: "attach", name: "fs" });
    expect(parseHello('{"pi-mcp-daemon":1,"token":"t","op":"status"}')).toMatchObject({ op: "status" });
  });

  it.each([
    ["not JSON", "not json", "the first line is not JSON"],
    ["an array", "[]", 'the hello has no "pi-mcp-daemon": 1'],
    ["a string", '"text"', "the hello is not a JSON object"],
    [
      "another wire version",
      JSON.stringify({ ...attach, "pi-mcp-daemon": 2 }),
      'the hello has no "pi-mcp-daemon": 1',
    ],
    ["a token that is no string", JSON.stringify({ ...attach, token: 5 }), 'the hello has no "token"'],
    [
      "an unknown op",
      JSON.stringify({ ...attach, op: "run" }),
      'the hello\'s "op" is not attach, status or stop',
    ],
    [
      "a negative idle timeout",
      JSON.stringify({ ...attach, idleTimeoutMs: -1 }),
      '"idleTimeoutMs" is not a non-negative number',
    ],
    [
      "args that are no strings",
      JSON.stringify({ ...attach, spec: { ...attach.spec, args: [1] } }),
      '"spec.args" is not an array of strings',
    ],
    [
      "an env value that is no string",
      JSON.stringify({ ...attach, spec: { ...attach.spec, env: { API_KEY: 7 } } }),
      '"spec.env.API_KEY" is not a string',
    ],
  ])("refuses %s with a bad_hello DaemonError", (_label, line, message) => {
    let thrown: unknown;
    try {
      parseHello(line);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DaemonError);
    expect(thrown).toMatchObject({ code: "bad_hello", message: expect.stringContaining(message) });
    expect((thrown as Error).message).not.toMatch(/secret/);
  });
});
