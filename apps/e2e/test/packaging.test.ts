/**
 * The three ways people get the adapter, from the tarballs `npm pack` makes
 * (what npm would publish): the whole Pi package loaded into real Pi, one
 * layer installed alone, and the `pi-mcp-adapter/oauth` subpath.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  createTempDir,
  stdioFixtureServerPath,
  type TempDir,
  toolResultTexts,
} from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { piHosts } from "../src/pi-hosts.js";
import { createPiProject } from "../src/pi-project.js";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

function publishablePackages(): string[] {
  const dir = path.join(repoRoot, "packages");
  return readdirSync(dir).filter((name) => {
    const manifest = JSON.parse(readFileSync(path.join(dir, name, "package.json"), "utf8")) as {
      private?: boolean;
    };
    return !manifest.private;
  });
}

function npm(cwd: string, args: string[]): string {
  return execFileSync("npm", [...args, "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd,
    encoding: "utf8",
  });
}

let dir: TempDir;
let tarballs: Map<string, string>;

beforeAll(async () => {
  dir = await createTempDir();
  await mkdir(dir.join("tarballs"));
  const packed = JSON.parse(
    npm(repoRoot, [
      "pack",
      "--json",
      "--pack-destination",
      dir.join("tarballs"),
      ...publishablePackages().flatMap((p) => ["-w", `packages/${p}`]),
    ]),
  ) as { name: string; filename: string }[];
  tarballs = new Map(packed.map((p) => [p.name, dir.join("tarballs", p.filename)]));
});

afterAll(async () => {
  await dir?.remove();
});

/**
 * Installs packages from their tarballs. Our own packages are not on the
 * registry yet, so the internal ones they depend on come from tarballs too —
 * as the registry would serve them; everything else comes from the registry.
 */
async function installInto(name: string, packages: string[]): Promise<string> {
  const app = dir.join(name);
  await mkdir(app);
  await writeFile(path.join(app, "package.json"), JSON.stringify({ name, private: true, type: "module" }));
  npm(app, ["install", ...withInternalDependencies(packages).map((p) => tarballs.get(p)!)]);
  return app;
}

function withInternalDependencies(packages: string[]): string[] {
  const all = new Set<string>();
  const visit = (name: string) => {
    if (all.has(name)) return;
    all.add(name);
    const manifestPath = path.join(repoRoot, "node_modules", name, "package.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as {
      dependencies?: Record<string, string>;
    };
    for (const dep of Object.keys(manifest.dependencies ?? {})) if (tarballs.has(dep)) visit(dep);
  };
  for (const name of packages) visit(name);
  return [...all];
}

describe("published tarballs", () => {
  it("hold built code only: no sources, tests or maps of tests", () => {
    for (const [name, file] of tarballs) {
      const listing = execFileSync("tar", ["-tzf", file], { encoding: "utf8" }).split("\n");
      expect(listing, name).toContain("package/package.json");
      expect(listing, name).toContain("package/README.md");
      expect(listing, name).toContain("package/dist/index.js");
      expect(
        listing.filter((f) => /\/(src|test)\//.test(f) || f.includes(".test.")),
        name,
      ).toEqual([]);
    }
  });

  it("the whole Pi package runs in real Pi from node_modules, with its bin and oauth subpath", async () => {
    const app = await installInto("whole", [...tarballs.keys()]);
    const extension = path.join(app, "node_modules", "pi-mcp-adapter");
    const help = spawnSync(path.join(app, "node_modules", ".bin", "pi-mcp-adapter"), ["--help"], {
      encoding: "utf8",
    });
    expect(help.stdout).toContain("Usage: pi-mcp-adapter");
    const oauth = spawnSync(
      process.execPath,
      ["--input-type=module", "-e", 'await import("pi-mcp-adapter/oauth")'],
      {
        cwd: app,
        encoding: "utf8",
      },
    );
    expect(oauth.status, oauth.stderr).toBe(0);

    for (const host of piHosts()) {
      await using project = await createPiProject({
        host,
        mcpServers: { fixture: { command: process.execPath, args: [stdioFixtureServerPath] } },
        allowProjectServers: true,
        steps: [
          { toolCall: { name: "mcp", arguments: { tool: "fixture_add", args: { a: 20, b: 22 } } } },
          { text: "done" },
        ],
      });
      const run = await project.run("add", { extension });
      expect(run.code, run.stderr).toBe(0);
      expect(toolResultTexts(project.model.requests[1]!), host.label).toEqual(["42"]);
    }
  });

  it("one layer installs and works alone", async () => {
    const app = await installInto("search-only", ["@pi-mcp-adapter/search"]);
    const installed = readdirSync(path.join(app, "node_modules", "@pi-mcp-adapter")).sort();
    expect(installed).toEqual(["core", "search"]);
    const script = `
      import { rankTools } from "@pi-mcp-adapter/search";
      const tool = (name, description) => ({ server: "s", name, prefixedName: "s_" + name, description, inputSchema: {}, kind: "tool" });
      const { hits } = rankTools("screenshot", [tool("navigate", "Open a URL"), tool("take_screenshot", "Capture the page")]);
      console.log(hits.map((h) => h.tool.name).join(","));`;
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      cwd: app,
      encoding: "utf8",
    });
    expect(run.stderr).toBe("");
    expect(run.stdout.trim().split(",")[0]).toBe("take_screenshot");
  });
});
