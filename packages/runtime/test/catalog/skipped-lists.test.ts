/**
 * A server that declares resources and prompts it does not list (as
 * @circleci/mcp-server-circleci 0.20.0 does, -32601 "method not found") or
 * whose resources/list fails another way keeps its tools: listed, cached
 * with the skipped lists noted, searched from the cache with no second start,
 * and status says what was skipped. Real stdio servers (test-kit's fault
 * server) and a real cache file. Its docstring-style descriptions show by
 * their first line that is not blank.
 */
import { readFile } from "node:fs/promises";
import { FAILED_LIST_RETRY_MS, MetadataCache } from "@pi-mcp-adapter/catalog";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { createTempDir, faultServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { AdapterRuntime, runProxyRequest } from "../../src/index.js";
import { formatStatus } from "../../src/startup.js";
import { connectWith, stdioDefinition } from "../definitions.js";

const fault = (name: string, mode: string): ServerDefinition =>
  stdioDefinition(name, { command: process.execPath, args: [faultServerPath], env: { FAULT_MODE: mode } });

/** A runtime over `servers` with the cache file at `file`; `starts` records each server it starts. */
function runtimeWith(file: string, servers: ServerDefinition[], starts: string[], now?: () => number) {
  const connect = connectWith();
  return new AdapterRuntime({
    servers,
    catalog: { cache: new MetadataCache({ file, ...(now ? { now } : {}) }) },
    connect: (definition, signal) => {
      starts.push(definition.name);
      return connect(definition, signal);
    },
  });
}

const textOf = (outcome: { content: { type: string; text?: string }[] }) =>
  outcome.content.map((c) => c.text ?? "").join("\n");

describe("a server whose declared lists do not come", () => {
  it("keeps and caches its tools when resources and prompts answer -32601, and says so in status", async () => {
    await using dir = await createTempDir();
    const file = dir.join("mcp-cache.json");
    const starts: string[] = [];
    const warm = runtimeWith(file, [fault("ci", "unimplemented-lists")], starts);
    try {
      expect(textOf(await runProxyRequest(warm, { search: "echo text back" }))).toContain("- ci_echo");
      const status = formatStatus(warm.listings.summaries(), []);
      expect(status).toContain("- ci: connected, 4 tools");
      expect(status).toContain(
        '  resources: none (the server declares them but answers resources/list with "method not found")',
      );
      expect(status).toContain(
        '  prompts: none (the server declares them but answers prompts/list with "method not found")',
      );
    } finally {
      await warm.shutdown();
    }
    const cached = JSON.parse(await readFile(file, "utf8")).servers.ci.listing;
    expect(cached.tools.map((t: { name: string }) => t.name)).toEqual(["echo", "crash", "sleep", "whoami"]);
    expect(cached.skipped.map((s: { list: string; reason: string }) => `${s.list} ${s.reason}`)).toEqual([
      "resources/list unsupported",
      "resources/templates/list unsupported",
      "prompts/list unsupported",
    ]);

    // The next session searches and describes from the cache: the server is not started again.
    const cold = runtimeWith(file, [fault("ci", "unimplemented-lists")], starts);
    try {
      expect(textOf(await runProxyRequest(cold, { search: "echo" }))).toContain("- ci_echo");
      expect(textOf(await runProxyRequest(cold, { describe: "ci_echo" }))).toContain(
        "ci_echo (server ci, tool echo)",
      );
      expect(formatStatus(cold.listings.summaries(), [])).toContain(
        "  resources: none (the server declares them",
      );
      expect(starts).toEqual(["ci"]);
    } finally {
      await cold.shutdown();
    }
  });

  it("keeps its tools and prompts when resources/list fails, and lists it again once that entry is an hour old", async () => {
    await using dir = await createTempDir();
    const file = dir.join("mcp-cache.json");
    const starts: string[] = [];
    const warm = runtimeWith(file, [fault("idx", "failing-lists")], starts);
    try {
      await runProxyRequest(warm, { search: "echo" });
      expect(formatStatus(warm.listings.summaries(), [])).toContain(
        "  resources left out: idx: resources/list failed: MCP error -32603: resource index unavailable (listed again after an hour, or on reconnect)",
      );
      expect((await warm.catalog.prompts("idx")).prompts.map((p) => p.prompt.name)).toEqual(["summary"]);
    } finally {
      await warm.shutdown();
    }
    const within = runtimeWith(file, [fault("idx", "failing-lists")], starts);
    try {
      expect(textOf(await runProxyRequest(within, { search: "echo" }))).toContain("- idx_echo");
      expect(starts).toEqual(["idx"]);
    } finally {
      await within.shutdown();
    }
    const later = runtimeWith(
      file,
      [fault("idx", "failing-lists")],
      starts,
      () => Date.now() + FAILED_LIST_RETRY_MS + 60_000,
    );
    try {
      expect(textOf(await runProxyRequest(later, { search: "echo" }))).toContain("- idx_echo");
      expect(starts).toEqual(["idx", "idx"]);
    } finally {
      await later.shutdown();
    }
  });

  it("shows a docstring-style description by its first line that is not blank, and describe dedents it", async () => {
    await using dir = await createTempDir();
    const runtime = runtimeWith(dir.join("mcp-cache.json"), [fault("ci", "unimplemented-lists")], []);
    try {
      const search = textOf(await runProxyRequest(runtime, { search: "echo text back" }));
      expect(search).toContain("- ci_echo: Echo the given text back.");
      // A tool that shares no word of the request is not shown for it (match confidence): asked for by name.
      expect(textOf(await runProxyRequest(runtime, { search: "whoami" }))).toContain(
        "- ci_whoami: The whoami tool.",
      );
      expect(textOf(await runProxyRequest(runtime, { describe: "ci_echo" }))).toContain(
        "ci_echo (server ci, tool echo)\nEcho the given text back.\n\nParameters:\n  - text: what to send\nParameters: none",
      );
    } finally {
      await runtime.shutdown();
    }
  });
});
