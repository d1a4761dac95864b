/**
 * Search says how sure it is, against server-everything over stdio through
 * the proxy's search (what the model reads): a request a tool serves lists
 * the relevant tools, counted; a request no tool serves says plainly that
 * nothing matched well, shows the closest few as weak, and says what to try.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdapterRuntime, headlessHost, runProxyRequest } from "../../src/index.js";
import { connectWith, everythingStdio } from "../definitions.js";

let runtime: AdapterRuntime;
beforeAll(() => {
  runtime = new AdapterRuntime({ servers: [everythingStdio], connect: connectWith(), host: headlessHost() });
});
afterAll(() => runtime.shutdown());

const search = async (words: string) => {
  const outcome = await runProxyRequest(runtime, { search: words });
  return outcome.content.map((c) => (c as { text?: string }).text ?? "").join("\n");
};
const hitLines = (text: string) => text.split("\n").filter((line) => line.startsWith("- "));

describe("search confidence", () => {
  it("counts only the relevant tools for a request a tool serves, its answer unmarked", async () => {
    const text = await search("echo a message back");
    const counted = /^(\d+) tools? match/.exec(text);
    expect(counted, text).not.toBeNull();
    const lines = hitLines(text);
    expect(Number(counted![1])).toBe(lines.length);
    expect(lines[0], text).toMatch(/^- everything_echo: [^\n]*[^)]$/);
    expect(text).not.toContain("No strong match");
  }, 60_000);

  it("says plainly when nothing matches well, and what to try", async () => {
    const text = await search("cook a pasta dinner for four people");
    expect(text).toMatch(
      /^No strong match for "cook a pasta dinner for four people"\. Closest, each a weak match:/,
    );
    expect(text).not.toMatch(/tools? match /);
    const lines = hitLines(text);
    expect(lines.length).toBeLessThanOrEqual(5);
    for (const line of lines) expect(line).toMatch(/ \(weak match\)$/);
    expect(text).toContain("Try other words");
    expect(text).toContain("mcp({})");
  }, 60_000);
});
