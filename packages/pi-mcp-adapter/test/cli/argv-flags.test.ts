import { describe, expect, it } from "vitest";
import { argvFlagValue, argvHasFlag } from "../../src/pi/host/argv-flags.js";

describe("flags read from process.argv before Pi parses them", () => {
  it("reads --name value and --name=value, and nothing when the value is missing", () => {
    expect(argvFlagValue(["node", "pi", "--mcp-config", "a.json", "-p", "x"], "mcp-config")).toBe("a.json");
    expect(argvFlagValue(["node", "pi", "--mcp-config=b.json"], "mcp-config")).toBe("b.json");
    expect(argvFlagValue(["node", "pi", "--mcp-config", "--mode", "json"], "mcp-config")).toBeUndefined();
    expect(argvFlagValue(["node", "pi", "--mcp-config"], "mcp-config")).toBeUndefined();
    expect(argvFlagValue(["node", "pi", "--mcp-configs=c"], "mcp-config")).toBeUndefined();
  });

  it("sees a boolean flag alone or as =true", () => {
    expect(argvHasFlag(["pi", "--no-mcp-adapter"], "no-mcp-adapter")).toBe(true);
    expect(argvHasFlag(["pi", "--no-mcp-adapter=true"], "no-mcp-adapter")).toBe(true);
    expect(argvHasFlag(["pi", "--no-mcp-adapter-x"], "no-mcp-adapter")).toBe(false);
  });
});
