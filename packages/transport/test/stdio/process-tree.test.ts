import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import {
  createTempDir,
  faultServerPath,
  isProcessAlive,
  recordedPids,
  waitForExit,
} from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { connectServer } from "../../src/index.js";
import { faultStdio, fixtureStdio } from "../helpers.js";

describe("process-tree shutdown", () => {
  it("kills a grandchild that ignores SIGTERM", async () => {
    await using dir = await createTempDir();
    const connection = await connectServer(
      faultStdio("parent", "grandchild", { FIXTURE_PID_DIR: dir.path }),
      {
        killGraceMs: 300,
      },
    );
    await connection.listTools();
    const pids = await recordedPids(dir.path);
    expect(pids).toHaveLength(2);
    expect(pids.every(isProcessAlive)).toBe(true);
    await connection.close();
    expect(await waitForExit(pids, 3000)).toEqual([]);
  });

  it("kills a server that ignores SIGTERM after the grace period", async () => {
    await using dir = await createTempDir();
    const connection = await connectServer(
      faultStdio("stubborn", "ignore-sigterm", { FIXTURE_PID_DIR: dir.path }),
      {
        killGraceMs: 300,
      },
    );
    const pids = await recordedPids(dir.path);
    await connection.close();
    expect(await waitForExit(pids, 3000)).toEqual([]);
  });

  it("ends the server behind a shell wrapper", async () => {
    await using dir = await createTempDir();
    const inner = fixtureStdio("inner", {});
    const wrapped = {
      ...inner,
      name: "wrapped",
      command: "/bin/sh",
      // A wrapper that does not exec: the server is a grandchild of ours.
      args: ["-c", `"${inner.command}" "${inner.args![0]}"; echo done >&2`],
      env: { FIXTURE_PID_DIR: dir.path },
    };
    const connection = await connectServer(wrapped);
    await connection.listTools();
    const [serverPid] = await recordedPids(dir.path);
    expect(serverPid).not.toBe(connection.pid);
    await connection.close();
    expect(await waitForExit([serverPid!, connection.pid!], 3000)).toEqual([]);
  });
});

describe("host exit", () => {
  it("kills servers and their grandchildren when the host exits without closing them", async () => {
    await using dir = await createTempDir();
    const script = fileURLToPath(new URL("../fixtures/exit-without-close.mjs", import.meta.url));
    const run = spawnSync(process.execPath, [script, process.execPath, faultServerPath], {
      env: { ...process.env, FAULT_MODE: "grandchild", FIXTURE_PID_DIR: dir.path },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(run.status, run.stderr).toBe(0);
    const pids = await recordedPids(dir.path);
    expect(pids).toHaveLength(2);
    expect(await waitForExit(pids, 3000)).toEqual([]);
  });
});
