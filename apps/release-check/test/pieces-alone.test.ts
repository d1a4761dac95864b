/**
 * Each piece installs and works alone: in an empty project, `npm install` of its tarball (with the
 * @pi-mcp-adapter packages it depends on, as tarballs, the way the registry would serve them) brings
 * exactly those of our packages, and the runnable example of its README prints what it says.
 * Examples that start the `everything` demo server get it installed beside the package (the version
 * e2e pins), so `npx -y` finds it locally instead of downloading it.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { installTarballs, npm } from "../src/install-tarballs.js";
import { publishedPackages, repoRoot, withInternalDependencies } from "../src/published-packages.js";
import { readmeExample } from "../src/readme-example.js";

const PIECES = [
  "config",
  "transport",
  "oauth",
  "catalog",
  "search",
  "output-guard",
  "approval",
  "runtime",
  "ui",
  "script",
  "daemon",
];
const everythingVersion = (
  JSON.parse(readFileSync(path.join(repoRoot, "apps", "e2e", "package.json"), "utf8")) as {
    devDependencies: Record<string, string>;
  }
).devDependencies["@modelcontextprotocol/server-everything"];

const temp = mkdtempSync(path.join(tmpdir(), "release-pieces-"));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

describe.concurrent("each piece installed alone", () => {
  for (const folder of PIECES) {
    it(`${folder}: installs alone and runs its README example`, async () => {
      const piece = publishedPackages().find((p) => p.folder === folder)!;
      const example = readmeExample(piece.dir);
      const app = await installTarballs(path.join(temp, folder), [piece.manifest.name]);
      const ours = readdirSync(path.join(app, "node_modules", "@pi-mcp-adapter")).map(
        (n) => `@pi-mcp-adapter/${n}`,
      );
      expect(ours.sort()).toEqual(withInternalDependencies([piece.manifest.name]).sort());
      if (example.usesEverythingServer) {
        await npm(app, ["install", `@modelcontextprotocol/server-everything@${everythingVersion}`]);
      }
      writeFileSync(path.join(app, "example.mjs"), example.code);
      const { stdout } = await promisify(execFile)(process.execPath, ["example.mjs"], {
        cwd: app,
        timeout: 120_000,
        env: { ...process.env, npm_config_prefer_offline: "true", MCP_UI_VIEWER: "none" },
      });
      for (const line of example.expected) expect(stdout, folder).toContain(line);
      expect(example.expected.length, `${folder}'s example says what it prints (// → …)`).toBeGreaterThan(0);
    });
  }
});
