/**
 * Core's bounded line splitter, as transport's stdio framing and the daemon's
 * sockets use it: lines across chunks, a line over the bound dropped and
 * reported with its edges, and the rest kept when the sink closes.
 */
import { describe, expect, it } from "vitest";
import { LineSplitter, type OversizedLine } from "../src/index.js";

function sink(open = () => true) {
  const lines: string[] = [];
  const oversized: OversizedLine[] = [];
  return {
    lines,
    oversized,
    sink: { line: (t: string) => lines.push(t), oversized: (o: OversizedLine) => oversized.push(o), open },
  };
}

describe("LineSplitter", () => {
  it("joins a line split over chunks and strips a carriage return", () => {
    const splitter = new LineSplitter(1024);
    const s = sink();
    splitter.push(Buffer.from('{"a":'), s.sink);
    splitter.push(Buffer.from('1}\r\n{"b":2}\n{"c"'), s.sink);
    expect(s.lines).toEqual(['{"a":1}', '{"b":2}']);
    expect(splitter.takeRest().toString()).toBe('{"c"');
  });

  it("drops a line over the bound, reporting its size, head and tail, and goes on with the next", () => {
    const splitter = new LineSplitter(16);
    const s = sink();
    splitter.push(Buffer.from(`{"id":7,"pad":"${"x".repeat(40)}`), s.sink);
    splitter.push(Buffer.from(`${"y".repeat(10)}","id":9}\nok\n`), s.sink);
    expect(s.lines).toEqual(["ok"]);
    expect(s.oversized).toHaveLength(1);
    expect(s.oversized[0]!.bytes).toBe(`{"id":7,"pad":"${"x".repeat(40)}${"y".repeat(10)}","id":9}`.length);
    expect(s.oversized[0]!.head.startsWith('{"id":7')).toBe(true);
    expect(s.oversized[0]!.tail.endsWith('"id":9}')).toBe(true);
  });

  it("keeps what followed the last line when the sink closes", () => {
    const splitter = new LineSplitter(1024);
    let open = true;
    const s = sink(() => open);
    const first = {
      ...s.sink,
      line: (t: string) => {
        s.lines.push(t);
        open = false;
      },
    };
    splitter.push(Buffer.from("hello\nrest one\nrest two"), first);
    expect(s.lines).toEqual(["hello"]);
    expect(splitter.takeRest().toString()).toBe("rest one\nrest two");
  });
});
