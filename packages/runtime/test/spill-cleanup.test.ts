import { rm, stat } from "node:fs/promises";
import path from "node:path";
import { createFixtureServer, createTempDir, serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { createRuntime } from "../src/create-runtime.js";
import { runProxyRequest } from "../src/tools/proxy-request.js";

const BIG = "a line of a long answer\n".repeat(20_000);

async function bigAnswerRuntime(keepSpillFiles?: boolean) {
  const dir = await createTempDir();
  const server = await serveStreamableHttp(() =>
    createFixtureServer({
      tools: [
        {
          name: "dump",
          description: "Dumps a lot",
          handler: () => ({ content: [{ type: "text", text: BIG }] }),
        },
      ],
    }),
  );
  const runtime = await createRuntime({
    cwd: dir.path,
    config: { mcpServers: { big: { url: server.url } } },
    metadataCacheFile: false,
    ...(keepSpillFiles ? { keepSpillFiles } : {}),
  });
  return {
    runtime,
    async [Symbol.asyncDispose]() {
      await runtime.shutdown();
      await server.close();
      await dir[Symbol.asyncDispose]();
    },
  };
}

async function spilledPath(
  runtime: Awaited<ReturnType<typeof bigAnswerRuntime>>["runtime"],
): Promise<string> {
  const outcome = await runProxyRequest(runtime, { tool: "big_dump" });
  const text = outcome.content.map((c) => ("text" in c ? c.text : "")).join("\n");
  const file = /Full text saved to (\S+) — /.exec(text)?.[1];
  expect(file, text.slice(-300)).toBeDefined();
  // One copy on disk: the text, which details point at too (no raw-JSON twin).
  expect(outcome.details).toMatchObject({ mcpResultFile: file, mcpResultFileFormat: "text" });
  expect((await stat(file!)).size).toBe(Buffer.byteLength(BIG));
  return file!;
}

describe("spill files of a session", () => {
  it("are removed with their directory when the runtime shuts down", async () => {
    await using env = await bigAnswerRuntime();
    const file = await spilledPath(env.runtime);
    await env.runtime.shutdown();
    await expect(stat(file)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(stat(path.dirname(file))).rejects.toMatchObject({ code: "ENOENT" });
  });

  it("stay after shutdown when the host keeps them (the CLI prints their paths)", async () => {
    await using env = await bigAnswerRuntime(true);
    const file = await spilledPath(env.runtime);
    await env.runtime.shutdown();
    expect((await stat(file)).size).toBe(Buffer.byteLength(BIG));
    await rm(path.dirname(file), { recursive: true, force: true });
  });
});
