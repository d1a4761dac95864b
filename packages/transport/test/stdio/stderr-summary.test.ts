/**
 * Which stderr lines a failure message quotes, for crash shapes of other
 * languages than Node (Node's come from real processes in faults.test.ts).
 * The texts are what these runtimes print, copied as they are.
 */
import { describe, expect, it } from "vitest";
import { stderrHint, summariseStderr } from "../../src/stdio/stderr-summary.js";

const lines = (text: string) => text.split("\n");

describe("summariseStderr", () => {
  it("quotes a Python traceback's exception, not its frames", () => {
    const traceback = lines(`INFO:server:starting on stdio
Traceback (most recent call last):
  File "/srv/app/server.py", line 3, in <module>
    import requests
ModuleNotFoundError: No module named 'requests'`);
    expect(summariseStderr(traceback)).toEqual(["ModuleNotFoundError: No module named 'requests'"]);
  });

  it("quotes a Go panic and a Rust panic with their message lines, not the goroutine dump", () => {
    const go = lines(`panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x47f1b2]

goroutine 1 [running]:
main.main()
	/src/main.go:12 +0x12`);
    expect(summariseStderr(go)).toEqual([
      "panic: runtime error: invalid memory address or nil pointer dereference",
      "[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x47f1b2]",
    ]);
    const rust = lines(`thread 'main' panicked at src/main.rs:4:36:
called \`Result::unwrap()\` on an \`Err\` value: Os { code: 2, kind: NotFound }
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace`);
    expect(summariseStderr(rust)[0]).toBe("thread 'main' panicked at src/main.rs:4:36:");
    expect(summariseStderr(rust)[1]).toContain("called `Result::unwrap()` on an `Err` value");
  });

  it("finds a FATAL or ERROR log line among routine logs", () => {
    const logs = lines(`2026-12-06T03:00:00Z INFO  listening on stdio
2026-12-06T03:00:00Z ERROR could not open /var/lib/app/db.sqlite: permission denied
2026-12-06T03:00:01Z INFO  shutting down`);
    expect(summariseStderr(logs)).toEqual([
      "2026-12-06T03:00:00Z ERROR could not open /var/lib/app/db.sqlite: permission denied",
    ]);
    expect(
      summariseStderr(["FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory"]),
    ).toHaveLength(1);
  });

  it("without an error line, quotes the last lines that are not routine logs", () => {
    const noisy = [
      ...Array.from({ length: 10 }, (_, i) => `[debug] step ${i}`),
      "config.yaml not found",
      "[info] bye",
    ];
    expect(summariseStderr(noisy)).toEqual(["config.yaml not found"]);
    expect(summariseStderr(["[info] a", "[info] b", "[info] c", "[info] d"])).toEqual([
      "[info] b",
      "[info] c",
      "[info] d",
    ]);
  });

  it("cuts a long line and says nothing for no stderr", () => {
    const [line] = summariseStderr([`Error: ${"x".repeat(1000)}`]);
    expect(line).toHaveLength(240);
    expect(line?.endsWith("…")).toBe(true);
    expect(stderrHint([])).toBe("");
    expect(stderrHint(["", "  "])).toBe("");
  });
});
