import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { byName, createWorld, messages, names } from "../world.js";

const PEM = "-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n";

describe("caFile", () => {
  it("is read from the config file's folder and kept as an absolute path", async () => {
    await using w = await createWorld();
    const config = path.join(w.agentDir, "mcp-adapter.json");
    await mkdir(path.join(w.agentDir, "certs"), { recursive: true });
    await writeFile(path.join(w.agentDir, "certs", "corp-ca.pem"), PEM);
    await w.write(config, {
      mcpServers: { corp: { url: "https://mcp.corp.test/mcp", caFile: "certs/corp-ca.pem" } },
    });
    const loaded = await w.load();
    expect(byName(loaded, "corp").caFile).toBe(path.join(w.agentDir, "certs", "corp-ca.pem"));
    expect(messages(loaded)).toEqual([]);
  });

  it("that is missing or not PEM skips its server with a message naming the file and the server", async () => {
    await using w = await createWorld();
    const config = path.join(w.agentDir, "mcp-adapter.json");
    await writeFile(path.join(w.agentDir, "junk.pem"), "hello");
    await w.write(config, {
      mcpServers: {
        gone: { url: "https://a.test/mcp", caFile: "missing.pem" },
        junk: { url: "https://b.test/mcp", caFile: "junk.pem" },
        fine: { url: "https://c.test/mcp" },
      },
    });
    const loaded = await w.load();
    expect(names(loaded)).toEqual(["fine"]);
    expect(messages(loaded, "error")).toEqual([
      `mcp-adapter.json: mcpServers.gone.caFile: CA file "${path.join(w.agentDir, "missing.pem")}" of server "gone" cannot be read (no such file); the server is not started`,
      `mcp-adapter.json: mcpServers.junk.caFile: CA file "${path.join(w.agentDir, "junk.pem")}" of server "junk" holds no PEM certificate (expected "-----BEGIN CERTIFICATE-----"); the server is not started`,
    ]);
  });
});
