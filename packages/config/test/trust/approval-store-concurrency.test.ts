import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFileApprovalStore } from "../../src/index.js";

const run = promisify(execFile);
const script = fileURLToPath(new URL("../fixtures/approve-once.mjs", import.meta.url));

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "approvals-"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe("the approval file shared by many sessions", () => {
  it("keeps every one of 40 approvals made by 40 processes at once, in one valid file", async () => {
    const file = path.join(dir, "agent", "mcp-adapter-approvals.json");
    const projects = Array.from({ length: 40 }, (_, i) => path.join(dir, `project-${i}`));
    await Promise.all(projects.map((project) => run(process.execPath, [script, file, project, "docs"])));

    const saved = JSON.parse(await readFile(file, "utf8")) as { approvals: { project: string }[] };
    expect(saved.approvals.map((entry) => entry.project).sort()).toEqual([...projects].sort());
    const store = createFileApprovalStore(file);
    for (const project of projects) {
      expect(await store.isApproved({ project, server: "docs", hash: "a".repeat(64) })).toBe(true);
    }
    // No lock, break marker or temp file left beside it.
    expect(await readdir(path.dirname(file))).toEqual(["mcp-adapter-approvals.json"]);
  }, 120_000);
});
