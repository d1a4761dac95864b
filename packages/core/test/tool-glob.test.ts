import { describe, expect, it } from "vitest";
import { matchesAnyToolGlob, matchesToolGlob, toolGlobMatcher } from "../src/index.js";

const tool = (name: string, prefixedName = `srv_${name}`) => ({ name, prefixedName });

describe("tool globs", () => {
  it("match the tool's own name or its prefixed name", () => {
    expect(matchesToolGlob("delete_*", tool("delete_file"))).toBe(true);
    expect(matchesToolGlob("srv_delete_*", tool("delete_file"))).toBe(true);
    expect(matchesToolGlob("other_*", tool("delete_file"))).toBe(false);
  });

  it("are case-insensitive, also for names spelled out in full", () => {
    expect(matchesToolGlob("Delete_*", tool("delete_file"))).toBe(true);
    expect(matchesToolGlob("SRV_DELETE_FILE", tool("delete_file"))).toBe(true);
    expect(matchesToolGlob("delete_*", tool("DELETE_FILE", "srv_DELETE_FILE"))).toBe(true);
  });

  it("treat / and . as ordinary characters that * and ? cross", () => {
    const match = toolGlobMatcher("fs_*");
    expect(match("fs_read/file.txt")).toBe(true);
    expect(toolGlobMatcher("*")("a/b/.c")).toBe(true);
    expect(toolGlobMatcher("a?c")("a/c")).toBe(true);
    expect(toolGlobMatcher("a?c")("a.c")).toBe(true);
    expect(toolGlobMatcher("files/*")("files/read/deep")).toBe(true);
    expect(toolGlobMatcher("files/*")("other/read")).toBe(false);
    expect(toolGlobMatcher("*.read")("fs.read")).toBe(true);
    expect(toolGlobMatcher(".hidden")("xhidden")).toBe(false);
  });

  it("accept picomatch classes, alternatives and negation", () => {
    expect(toolGlobMatcher("[ab]_x")("B_x")).toBe(true);
    expect(toolGlobMatcher("{create,update}_*")("update_issue")).toBe(true);
    expect(toolGlobMatcher("{create,update}_*")("delete_issue")).toBe(false);
    expect(toolGlobMatcher("!read_*")("write_file")).toBe(true);
    expect(toolGlobMatcher("!read_*")("read_file")).toBe(false);
    expect(toolGlobMatcher("a\\*")("a*")).toBe(true);
    expect(toolGlobMatcher("a\\*")("ab")).toBe(false);
  });

  it("match a name holding glob characters by spelling it, and an empty glob matches nothing", () => {
    expect(toolGlobMatcher("run(fast)+[x]")("run(fast)+[x]")).toBe(true);
    expect(toolGlobMatcher("")("")).toBe(false);
    expect(matchesAnyToolGlob(["", "nope"], tool("x"))).toBe(false);
    expect(matchesAnyToolGlob(["nope", "x"], tool("x"))).toBe(true);
    expect(matchesAnyToolGlob([], tool("x"))).toBe(false);
  });
});
