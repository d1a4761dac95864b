import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { createFileSpillWriter, createOutputGuard, type SpillWriter } from "../src/index.js";
import { filesUnder, tempRoot } from "./temp.js";

const ctx = { server: "files", tool: "read" };
const textOf = (content: Array<{ type: string; text?: string }>) =>
  content.map((c) => c.text ?? "").join("\n");

/**
 * The real file writer, except that the disk "fills up" once `room` characters are written: the
 * ENOSPC a full disk gives cannot be produced on demand here, so it is thrown from the injected
 * writer interface, around real files.
 */
function fillingDisk(root: string, room: number): SpillWriter {
  const real = createFileSpillWriter({ root });
  let written = 0;
  return {
    ...real,
    async create(nameHint, extension) {
      const file = await real.create(nameHint, extension);
      return {
        ...file,
        path: file.path,
        async write(chunk) {
          written += chunk.length;
          if (written > room) {
            await file.write(chunk.slice(0, Math.max(0, chunk.length - (written - room))));
            throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
          }
          await file.write(chunk);
        },
      };
    },
  };
}

describe("spill files that cannot be written", () => {
  it("leaves no partial file when the disk fills up, and the result says the full text could not be saved and why", async () => {
    await using root = await tempRoot();
    const guard = createOutputGuard({ spill: fillingDisk(root.path, 400_000), staleFiles: false });
    const text = "line of a very long answer\n".repeat(40_000);
    const out = await guard.guard({ content: [{ type: "text", text }] }, ctx);
    const said = textOf(out.content);
    expect(said).toMatch(
      /\[Output truncated: showing 50\.0 KiB of 1\.0 MiB \(1\d\d\d of 40000 lines\)\. The full text could not be saved: ENOSPC: no space left on device, write\.\]$/,
    );
    expect(out.spill?.path).toBeUndefined();
    expect(await filesUnder(root.path)).toEqual([]);
  });

  it("leaves no partial raw-JSON file either when that write fails", async () => {
    await using root = await tempRoot();
    const guard = createOutputGuard({
      spill: fillingDisk(root.path, 10_000),
      setting: { detailsMaxBytes: 100 },
      staleFiles: false,
    });
    const result = { content: [{ type: "text", text: "x".repeat(30_000) }], structuredContent: { n: 1 } };
    const out = await guard.guard(result, { ...ctx, details: true });
    expect(out.details).toMatchObject({ mcpResultFileError: "ENOSPC: no space left on device, write" });
    expect(await filesUnder(root.path)).toEqual([]);
  });

  it("says so when no spill file can be created at all", async () => {
    const guard = createOutputGuard({
      spill: {
        create: async () => {
          throw new Error("EROFS: read-only file system, open '/tmp/x'");
        },
      },
      staleFiles: false,
    });
    const out = await guard.guard({ content: [{ type: "text", text: "y\n".repeat(5000) }] }, ctx);
    expect(textOf(out.content)).toContain(
      "The full text could not be saved: EROFS: read-only file system, open '/tmp/x'.]",
    );
  });
});

describe("spill files on disk", () => {
  it("writes a large text-only result once (the text), not again as JSON", async () => {
    await using root = await tempRoot();
    const guard = createOutputGuard({ root: root.path, staleFiles: false });
    const text = "z".repeat(200_000);
    const out = await guard.guard({ content: [{ type: "text", text }] }, { ...ctx, details: true });
    expect(out.details).toEqual({
      mcpResultSummary: { contentTypes: { text: 1 }, isError: false },
      mcpResultFile: out.spill?.path,
      mcpResultFileFormat: "text",
    });
    const files = await filesUnder(root.path);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^pi-mcp-adapter-spill-\w+\/files-read-[0-9a-f]{8}\.txt$/);
    expect(await readFile(out.spill?.path ?? "", "utf8")).toBe(text);
  });
});
