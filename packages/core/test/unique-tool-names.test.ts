import { describe, expect, it } from "vitest";
import { uniqueToolNames } from "../src/index.js";
import { MAX_TOOL_NAME_LENGTH } from "../src/tool-naming.js";

describe("uniqueToolNames", () => {
  it("keeps every tool whose names fold alike: the folded-form name wins, the rest get _2, _3 by name", () => {
    expect(uniqueToolNames("math", ["get-sum", "get_sum", "get.sum", "get sum"])).toEqual([
      "math_get_sum_3",
      "math_get_sum",
      "math_get_sum_4",
      "math_get_sum_2",
    ]);
  });

  it("gives each MCP name the same exposed name whatever order the server lists them in", () => {
    const names = ["get-sum", "get_sum", "get.sum", "get sum", "other"];
    const expected = new Map(names.map((n, i) => [n, uniqueToolNames("s", names)[i]]));
    const reversed = [...names].reverse();
    const again = uniqueToolNames("s", reversed);
    expect(again).toEqual(reversed.map((name) => expected.get(name)));
  });

  it("never hands out a suffixed name a real tool already has", () => {
    expect(uniqueToolNames("s", ["a-b", "a_b", "a_b_2"])).toEqual(["s_a_b_3", "s_a_b", "s_a_b_2"]);
  });

  it("keeps equal names apart (the earlier entry wins) and leaves names that do not collide alone", () => {
    expect(uniqueToolNames("s", ["summarize", "list", "summarize"], "none")).toEqual([
      "summarize",
      "list",
      "summarize_2",
    ]);
  });

  it("keeps suffixed names within 64 characters and distinct", () => {
    const long = "x".repeat(70);
    const out = uniqueToolNames("server", [`${long}-a`, `${long}_a`]);
    expect(new Set(out).size).toBe(2);
    for (const name of out) expect(name.length).toBeLessThanOrEqual(MAX_TOOL_NAME_LENGTH);
  });
});
