import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { ToolCallResult } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import {
  createBlobStore,
  createFileSpillWriter,
  createOutputGuard,
  type OutputGuardOptions,
} from "../src/index.js";
import { parseOutputGuardSetting } from "../src/schemas.js";
import { tempRoot } from "./temp.js";

const ctx = { server: "files", tool: "read" };
const b64 = (bytes: Buffer | string) => Buffer.from(bytes).toString("base64");

async function guardIn(root: string, options: OutputGuardOptions = {}) {
  return createOutputGuard({
    spill: createFileSpillWriter({ root }),
    blobs: createBlobStore({ root }),
    ...options,
  });
}

describe("createOutputGuard: content", () => {
  it("maps every MCP content type to host content and keeps structuredContent and isError", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path);
    const result: ToolCallResult = {
      isError: true,
      structuredContent: { ok: false },
      content: [
        { type: "text", text: "\u001b[31mplain\u001b[0m" },
        { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
        { type: "audio", data: b64("RIFFdata"), mimeType: "audio/wav" },
        { type: "resource", resource: { uri: "file:///a.md", mimeType: "text/markdown", text: "# A" } },
        {
          type: "resource",
          resource: { uri: "file:///b.pdf", mimeType: "application/pdf", blob: b64("%PDF-1.7") },
        },
        {
          type: "resource_link",
          uri: "file:///c.txt",
          name: "c.txt",
          description: "notes",
          mimeType: "text/plain",
        },
        { type: "hologram", data: 1 },
      ],
    };
    const out = await guard.guard(result, ctx);
    expect(out.isError).toBe(true);
    expect(out.structuredContent).toEqual({ ok: false });
    const [text, image, audio, resourceText, resourceBlob, link, unknown] = out.content;
    expect(text).toEqual({ type: "text", text: "plain" });
    expect(image).toEqual({ type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" });
    expect(resourceText).toEqual({ type: "text", text: "[resource file:///a.md (text/markdown)]\n# A" });
    expect(link).toEqual({ type: "text", text: "[resource link file:///c.txt (text/plain): c.txt — notes]" });
    expect(unknown).toEqual({ type: "text", text: '[unsupported content type "hologram"]' });

    const audioPath = /saved to (\S+\.wav)\]$/.exec(audio?.type === "text" ? audio.text : "")?.[1] ?? "";
    expect(await readFile(audioPath, "utf8")).toBe("RIFFdata");
    const pdfPath =
      /saved to (\S+\.pdf)\]$/.exec(resourceBlob?.type === "text" ? resourceBlob.text : "")?.[1] ?? "";
    expect(resourceBlob).toMatchObject({ type: "text" });
    expect((resourceBlob as { text: string }).text).toMatch(
      /^\[resource file:\/\/\/b\.pdf \(application\/pdf\): 8 B saved to /,
    );
    expect(await readFile(pdfPath, "utf8")).toBe("%PDF-1.7");
    expect((await stat(pdfPath)).mode & 0o777).toBe(0o600);
  });

  it("shows structuredContent as JSON when there is no content block", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path);
    const out = await guard.guard({ content: [], structuredContent: { temp: 21 } }, ctx);
    expect(out.content).toEqual([{ type: "text", text: '{"temp":21}' }]);
    expect((await guard.guard({ content: [] }, ctx)).content).toEqual([
      { type: "text", text: "(empty result)" },
    ]);
  });

  it("caps inline text and names the spill file holding all of it", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { setting: { maxBytes: 1000, maxLines: 50 } });
    const big = Array.from({ length: 500 }, (_, i) => `row ${i}`).join("\n");
    const out = await guard.guard({ content: [{ type: "text", text: big }] }, ctx);
    expect(out.content[0]).toEqual({ type: "text", text: big.split("\n").slice(0, 50).join("\n") });
    const notice = out.content[1]?.type === "text" ? out.content[1].text : "";
    expect(notice).toContain("(50 of 500 lines)");
    expect(await readFile(out.spill?.path ?? "", "utf8")).toBe(big);
    expect(notice).toContain(out.spill?.path);
  });

  it("never throws on malformed blocks a server might send", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path);
    const weird = {
      content: [null, { type: "text" }, { type: "resource" }, { type: "audio" }],
    } as unknown as ToolCallResult;
    const out = await guard.guard(weird, ctx);
    expect(out.content.map((c) => (c.type === "text" ? c.text : c.type))).toEqual([
      '[unsupported content type "undefined"]',
      "[resource : no content]",
      "[audio: no data]",
    ]);
  });
});

describe("createOutputGuard: binary files", () => {
  it("refuses a blob over the per-file bound with a clear message and writes nothing", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { blobs: createBlobStore({ root: root.path, maxFileBytes: 10 }) });
    const out = await guard.guard(
      { content: [{ type: "resource", resource: { uri: "x:big", blob: b64(Buffer.alloc(11)) } }] },
      ctx,
    );
    expect(out.content[0]).toEqual({
      type: "text",
      text: "[resource x:big: binary content of 11 B is larger than the 10 B limit for one file; it was not saved]",
    });
    expect(await readdir(root.path)).toEqual([]);
  });

  it("bounds a session's files by count and bytes", async () => {
    await using root = await tempRoot();
    const blobs = createBlobStore({ root: root.path, maxSessionFiles: 2, maxSessionBytes: 100 });
    await blobs.save(b64("a"), { nameHint: "a" });
    await blobs.save(b64("b"), { nameHint: "b" });
    await expect(blobs.save(b64("c"), { nameHint: "c" })).rejects.toMatchObject({
      code: "blob_session_limit",
    });
    const bytes = createBlobStore({ root: root.path, maxSessionBytes: 5 });
    await bytes.save(b64("1234"), { nameHint: "a" });
    await expect(bytes.save(b64("12"), { nameHint: "b" })).rejects.toThrow(/limits 10000 files, 5 B/);
    expect(bytes.usage()).toEqual({ bytes: 4, files: 1 });
    await blobs.dispose();
    await bytes.dispose();
  });

  it("removes every binary file of the session at teardown, and keeps its spill files", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { setting: { maxBytes: 300 } });
    const longText = "a long text that is cut ".repeat(20);
    const out = await guard.guard(
      {
        content: [
          { type: "resource", resource: { uri: "x:1", mimeType: "image/png", blob: b64("png") } },
          { type: "text", text: longText },
        ],
      },
      ctx,
    );
    const blobPath = /saved to (\S+)\]/.exec((out.content[0] as { text: string }).text)?.[1] ?? "";
    expect(await readFile(blobPath, "utf8")).toBe("png");
    await guard.dispose();
    await expect(stat(blobPath)).rejects.toMatchObject({ code: "ENOENT" });
    await expect(stat(path.dirname(blobPath))).rejects.toMatchObject({ code: "ENOENT" });
    // A resumed session's history still names the spill file: it stays (see spillMaxAgeDays).
    expect(await readFile(out.spill?.path ?? "", "utf8")).toContain(longText);
    expect(await readdir(root.path)).toEqual([path.basename(path.dirname(out.spill?.path ?? ""))]);
  });
});

describe("createOutputGuard: details", () => {
  it("keeps a small raw result as is", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path);
    const result = { content: [{ type: "text", text: "hi" }] };
    expect((await guard.guard(result, { ...ctx, details: true })).details).toEqual({ mcpResult: result });
    expect((await guard.guard(result, ctx)).details).toBeUndefined();
  });

  it("replaces a large raw result with a summary and spills its JSON", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { setting: { detailsMaxBytes: 100 } });
    const result: ToolCallResult = {
      content: [
        { type: "text", text: "x".repeat(200) },
        { type: "image", data: "AAAA", mimeType: "image/png" },
      ],
      structuredContent: { rows: [1, 2] },
    };
    const details = (await guard.guard(result, { ...ctx, details: true })).details;
    expect(details).toMatchObject({
      mcpResultSummary: {
        contentTypes: { text: 1, image: 1 },
        isError: false,
        structuredContentKeys: ["rows"],
      },
    });
    const file = details && "mcpResultFile" in details ? (details.mcpResultFile ?? "") : "";
    expect(JSON.parse(await readFile(file, "utf8"))).toEqual(result);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe("outputGuard setting", () => {
  it("detailsMaxBytes 0 keeps only a summary in details, even for a tiny result", async () => {
    const setting = parseOutputGuardSetting({ detailsMaxBytes: 0 }, "mcp.json: settings.outputGuard");
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { setting });
    const result = { content: [{ type: "text", text: "hi" }] };
    const details = await guard.guard(result, { ...ctx, details: true });
    expect(details.content).toEqual([{ type: "text", text: "hi" }]);
    expect(details.details).toMatchObject({ mcpResultSummary: { contentTypes: { text: 1 } } });
    const file = details.details && "mcpResultFile" in details.details ? details.details.mcpResultFile : "";
    expect(JSON.parse(await readFile(file ?? "", "utf8"))).toEqual(result);
  });

  it("names the file and field of a bad limit", () => {
    expect(() => parseOutputGuardSetting({ maxBytes: 0 }, "/p/mcp.json: settings.outputGuard")).toThrow(
      /^\/p\/mcp\.json: settings\.outputGuard\.maxBytes: Too small/,
    );
    expect(() => parseOutputGuardSetting({ detailsMaxBytes: -1 }, "f: outputGuard")).toThrow(
      /^f: outputGuard\.detailsMaxBytes: .*detailsMaxBytes as an integer ≥ 0/,
    );
    expect(() => parseOutputGuardSetting({ maxbytes: 9 }, "f: outputGuard")).toThrow(
      /^f: outputGuard: Unrecognized key: "maxbytes"/,
    );
  });
});

describe("createOutputGuard: TOON", () => {
  const rows = JSON.stringify({ users: [1, 2, 3, 4].map((id) => ({ id, name: `user${id}`, active: true })) });

  it("encodes JSON text as TOON for the servers it is on for, when shorter", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { toonEncode: ["files"] });
    const out = await guard.guard({ content: [{ type: "text", text: rows }] }, ctx);
    const text = (out.content[0] as { text: string }).text;
    expect(text).toBe(
      "users[4]{id,name,active}:\n  1,user1,true\n  2,user2,true\n  3,user3,true\n  4,user4,true",
    );
    const other = await guard.guard(
      { content: [{ type: "text", text: rows }] },
      { server: "other", tool: "t" },
    );
    expect((other.content[0] as { text: string }).text).toBe(rows);
  });

  it("leaves error results, non-JSON text and JSON that TOON would not shorten alone", async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { toonEncode: true });
    const texts = [rows, "not json {", "[1]"];
    const error = await guard.guard({ isError: true, content: [{ type: "text", text: rows }] }, ctx);
    expect((error.content[0] as { text: string }).text).toBe(rows);
    const plain = await guard.guard({ content: texts.slice(1).map((text) => ({ type: "text", text })) }, ctx);
    expect(plain.content).toEqual(texts.slice(1).map((text) => ({ type: "text", text })));
  });
});

describe("createOutputGuard: off switches", () => {
  const big = { content: [{ type: "text", text: "y".repeat(70_000) }] };

  it('"outputGuard": false returns the full text, still without control sequences', async () => {
    await using root = await tempRoot();
    const guard = await guardIn(root.path, { setting: false });
    const out = await guard.guard(
      { content: [{ type: "text", text: `\u001b[2J${"y".repeat(70_000)}` }] },
      ctx,
    );
    expect(out.content).toEqual(big.content);
    expect(out.spill).toBeUndefined();
    expect(guard.settings.enabled).toBe(false);
  });

  it("MCP_OUTPUT_GUARD=0 turns it off; other values leave it on", async () => {
    await using root = await tempRoot();
    expect((await guardIn(root.path, { env: { MCP_OUTPUT_GUARD: "0" } })).settings.enabled).toBe(false);
    const on = await guardIn(root.path, { env: { MCP_OUTPUT_GUARD: "1" } });
    expect((await on.guard(big, ctx)).spill).toBeDefined();
  });
});
