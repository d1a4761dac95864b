/**
 * Spill files (the full text of a cut result) of a runtime: they outlive its
 * shutdown, since a resumed session's history and the user still name them,
 * and a runtime that starts removes those older than
 * `settings.spillMaxAgeDays`. The runtime writes them under the system temp
 * dir; TMPDIR points that at a directory of the test.
 */
import { mkdir, stat, utimes, writeFile } from "node:fs/promises";
import path from "node:path";
import { createFixtureServer, createTempDir, serveStreamableHttp } from "@pi-mcp-adapter/test-kit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createRuntime } from "../../src/create-runtime.js";
import { runProxyRequest } from "../../src/tools/proxy-request.js";

const BIG = "a line of a long answer\n".repeat(20_000);
const DAY = 24 * 60 * 60 * 1000;

afterEach(() => {
  vi.unstubAllEnvs();
});

async function bigAnswerRuntime(settings: Record<string, unknown> = {}) {
  const dir = await createTempDir();
  const tmp = path.join(dir.path, "tmp");
  await mkdir(tmp);
  vi.stubEnv("TMPDIR", tmp);
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
    config: { mcpServers: { big: { url: server.url } }, settings },
    metadataCacheFile: false,
  });
  return {
    runtime,
    tmp,
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

const exists = (file: string) =>
  stat(file).then(
    () => true,
    () => false,
  );

describe("spill files of a session", () => {
  it("stay after the runtime shuts down, for a resumed session and the user to open", async () => {
    await using env = await bigAnswerRuntime();
    const file = await spilledPath(env.runtime);
    expect(path.dirname(path.dirname(file))).toBe(env.tmp);
    await env.runtime.shutdown();
    expect((await stat(file)).size).toBe(Buffer.byteLength(BIG));
  });

  it("older than settings.spillMaxAgeDays are removed when a runtime starts; younger ones stay", async () => {
    const dir = await createTempDir();
    const plant = async (file: string, daysOld: number) => {
      const at = path.join(dir.path, "tmp", file);
      await mkdir(path.dirname(at), { recursive: true });
      await writeFile(at, "an earlier session's answer");
      const when = new Date(Date.now() - daysOld * DAY);
      await utimes(at, when, when);
      return at;
    };
    const old = await plant("pi-mcp-adapter-spill-OLD111/big-dump-0123abcd.txt", 3);
    const young = await plant("pi-mcp-adapter-spill-NEW222/big-dump-4567cdef.txt", 1);
    vi.stubEnv("TMPDIR", path.join(dir.path, "tmp"));
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { mcpServers: {}, settings: { spillMaxAgeDays: 2 } },
      metadataCacheFile: false,
    });
    try {
      await expect.poll(() => exists(old)).toBe(false);
      expect(await exists(young)).toBe(true);
    } finally {
      await runtime.shutdown();
      await dir[Symbol.asyncDispose]();
    }
  });
});
