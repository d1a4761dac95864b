import { readFile, stat } from "node:fs/promises";
import { createTempDir } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { debugLogRequested, redactSecrets, ServerLog } from "../../src/observability/server-log.js";

const at = () => new Date("2026-12-01T10:00:00.000Z");

describe("the adapter's log file", () => {
  it("writes one line per server message, continuation lines indented, control sequences stripped", async () => {
    await using dir = await createTempDir();
    const log = new ServerLog(dir.join("agent", "mcp-adapter.log"), { debug: false, now: at });
    log.server("docs", "warning", "indexer", "slow \u001b[31mdisk\u001b[0m\nsecond line");
    log.server("docs", "info", undefined, { progress: 3 });
    log.debug("not written without debugging");
    expect(await readFile(log.file, "utf8")).toBe(
      "2026-12-01T10:00:00.000Z [docs] warning indexer: slow disk\n    second line\n" +
        '2026-12-01T10:00:00.000Z [docs] info: {"progress":3}\n',
    );
    expect((await stat(log.file)).mode & 0o777).toBe(0o600);
  });

  it("moves the file to .1 (replacing an older one) once it would grow past its limit", async () => {
    await using dir = await createTempDir();
    const log = new ServerLog(dir.join("mcp-adapter.log"), { debug: true, maxBytes: 100, now: at });
    log.debug("first line of some length");
    log.debug("second line of some length");
    log.debug("third line");
    // One older file is kept: the first line is gone, the second moved to .1.
    expect(await readFile(`${log.file}.1`, "utf8")).toBe(
      "2026-12-01T10:00:00.000Z [pi-mcp-adapter] debug: second line of some length\n",
    );
    expect(await readFile(log.file, "utf8")).toBe(
      "2026-12-01T10:00:00.000Z [pi-mcp-adapter] debug: third line\n",
    );
  });

  it("never writes values that look like credentials", () => {
    expect(redactSecrets("Authorization: Bearer abcdef123456 sent")).toBe(
      "Authorization: [redacted] [redacted] sent",
    );
    expect(redactSecrets('{"apiKey":"sk-123456","user":"ann"}')).toBe('{"apiKey":"[redacted]","user":"ann"}');
    expect(redactSecrets("GET /cb?code=1&access_token=xyz987&x=1")).toBe(
      "GET /cb?code=1&access_token=[redacted]&x=1",
    );
    expect(redactSecrets("password=hunter22 ok")).toBe("password=[redacted] ok");
  });

  it("debugs only when PI_MCP_ADAPTER_DEBUG or MCP_UI_DEBUG asks", () => {
    expect(debugLogRequested({})).toBe(false);
    expect(debugLogRequested({ PI_MCP_ADAPTER_DEBUG: "1" })).toBe(true);
    expect(debugLogRequested({ MCP_UI_DEBUG: "1" })).toBe(true);
    expect(debugLogRequested({ MCP_UI_DEBUG: "0" })).toBe(false);
  });
});
