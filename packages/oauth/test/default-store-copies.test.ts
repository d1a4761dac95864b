/**
 * A cooperating extension that bundles its own copy of the package must use
 * the store the adapter was configured with. Two separately installed copies
 * (each its own module instance) in temp `node_modules` dirs, run by real
 * Node processes, with the encrypted-file store and no keyring anywhere.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { cp, mkdir, mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./fixtures/default-store-copies.mjs", import.meta.url));
const packageDir = fileURLToPath(new URL("..", import.meta.url));
const url = "https://mcp.example.com/mcp";

let dir: string;
let env: NodeJS.ProcessEnv;

/** One installed copy: the built package copied, its dependencies linked. */
async function installCopy(name: string): Promise<string> {
  const root = path.join(dir, name);
  const scope = path.join(root, "node_modules", "@pi-mcp-adapter");
  await mkdir(scope, { recursive: true });
  await cp(path.join(packageDir, "dist"), path.join(scope, "oauth", "dist"), { recursive: true });
  await cp(path.join(packageDir, "package.json"), path.join(scope, "oauth", "package.json"));
  await symlink(path.join(packageDir, "..", "core"), path.join(scope, "core"));
  const zod = path.dirname(fileURLToPath(import.meta.resolve("zod/package.json")));
  await symlink(zod, path.join(root, "node_modules", "zod"));
  return root;
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "oauth-copies-"));
  await Promise.all([installCopy("extension-a"), installCopy("extension-b")]);
  env = {
    PATH: process.env.PATH,
    HOME: path.join(dir, "home"),
    PI_CODING_AGENT_DIR: path.join(dir, "agent"),
    PI_MCP_ADAPTER_OAUTH_FILE_KEY: randomBytes(32).toString("base64"),
    // No session bus: a copy that fell back to the keyring could not read anything.
    DBUS_SESSION_BUS_ADDRESS: "unix:path=/nonexistent",
  };
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function copies(mode: string) {
  const a = path.join(dir, "extension-a");
  const b = path.join(dir, "extension-b");
  const { stdout } = await run(process.execPath, [script, mode, a, b, url], { env });
  return JSON.parse(stdout) as Record<string, unknown>;
}

describe("the default store across copies of the package", () => {
  it("in one process, a second copy uses the store the adapter's copy set", async () => {
    expect(await copies("same-process")).toEqual({ store: "encrypted-file", token: "shared-access-token" });
  });

  it("in another process, a copy finds the adapter's choice in the agent dir", async () => {
    await rm(path.join(dir, "agent"), { recursive: true, force: true });
    expect(await copies("record")).toEqual({ saved: true });
    const recorded = path.join(dir, "agent", "mcp-adapter", "oauth", "default-store.json");
    expect(JSON.parse(await readFile(recorded, "utf8"))).toEqual({ version: 1, kind: "encrypted-file" });
    expect(await copies("read")).toEqual({ store: "encrypted-file", token: "shared-access-token" });
  });

  it("without a recorded choice, the OS keyring stays the default", async () => {
    await rm(path.join(dir, "agent"), { recursive: true, force: true });
    const { stdout } = await run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const b = await import(${JSON.stringify(path.join(dir, "extension-b", "node_modules/@pi-mcp-adapter/oauth/dist/index.js"))}); console.log(b.getDefaultCredentialStore().kind)`,
      ],
      { env },
    );
    expect(stdout.trim()).toBe("keyring");
  });
});
