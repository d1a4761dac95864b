/**
 * The compatibility suite through the CLI: published MCP servers from npm
 * (apps/e2e's devDependencies, exact versions), all configured in one fresh
 * agent dir, each connected, listed into the metadata cache, found by a task
 * description, described, called offline and against a network it does not
 * have, with nothing left running afterwards. Writes `.compat/results.json`
 * for the README's table (`npm run compat:table -w apps/e2e`).
 */
import { spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromiumForTests, createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHECKS, type CheckName, knownFault, verdict } from "../../src/compat/compat-checks.js";
import {
  type CompatRun,
  MARKER,
  manifestOf,
  markedProcesses,
  runCompat,
} from "../../src/compat/compat-run.js";
import { COMPAT_SERVERS, type CompatServer } from "../../src/compat/compat-servers.js";

const e2eDir = fileURLToPath(new URL("../..", import.meta.url));
const chromium = chromiumForTests();
let temp: TempDir;
// The issue's two requests over every published server's tools (231 and 228 "matched" before).
const SCREENSHOT = "take a screenshot of a web page";
const PASTA = "cook a pasta dinner for four people";
let run: CompatRun;

function applies(server: CompatServer, check: CheckName): boolean {
  if (check === "connect" || check === "cleanup") return true;
  if (server.startFailure) return false;
  if (check === "offline") return Boolean(server.offline?.length);
  if (check === "network") return Boolean(server.network);
  return true;
}

beforeAll(async () => {
  if (!chromium) throw new Error("the compatibility suite needs Debian's chromium (.ci/run installs it)");
  temp = await createTempDir();
  run = await runCompat({
    temp,
    servers: COMPAT_SERVERS,
    chromium: chromium.launch.executablePath,
    concurrency: 3,
    searches: [SCREENSHOT, PASTA],
  });
}, 300_000);

afterAll(async () => {
  if (run) {
    const servers = COMPAT_SERVERS.map((server) => {
      const seen = run.servers.find((s) => s.name === server.name)!;
      const checks = Object.fromEntries(
        CHECKS.map((c) => [
          c,
          { ...verdict(server, seen, c, run.paths), known: knownFault(server.name, c) ?? null },
        ]),
      );
      const { version } = manifestOf(server.pkg);
      return {
        name: server.name,
        pkg: server.pkg,
        version,
        query: server.search.query,
        toolCount: seen.connect.toolCount,
        checks,
      };
    });
    await mkdir(path.join(e2eDir, ".compat"), { recursive: true });
    const results = { date: new Date().toISOString(), wallMs: run.wallMs, servers };
    await writeFile(path.join(e2eDir, ".compat", "results.json"), `${JSON.stringify(results, null, 2)}\n`);
  }
  await temp?.remove();
});

describe.each(COMPAT_SERVERS)("published server $name ($pkg)", (server) => {
  for (const check of CHECKS.filter((c) => applies(server, c))) {
    const fault = knownFault(server.name, check);
    const test = fault ? it.fails : it;
    test(`${check}${fault ? ` (known fault, ${fault})` : ""}`, () => {
      const seen = run.servers.find((s) => s.name === server.name)!;
      const { pass, detail } = verdict(server, seen, check, run.paths);
      // searchLine has nothing to judge when search showed none of the server's tools (search fails then).
      if (check === "searchLine" && pass === null) return;
      expect(pass, `${server.name} ${check}: ${detail}`).toBe(true);
    });
  }
});

it("the cleanup check finds a process that carries a server's marker", async () => {
  const child = spawn(process.execPath, ["-e", "setTimeout(() => {}, 60_000)"], {
    env: { ...process.env, [MARKER]: "control-run:probe" },
    stdio: "ignore",
  });
  try {
    await expect.poll(async () => (await markedProcesses("control-run")).get("probe")?.length ?? 0).toBe(1);
  } finally {
    child.kill("SIGKILL");
  }
  await expect.poll(async () => (await markedProcesses("control-run")).size).toBe(0);
});

it("search over every published server counts the relevant tools and says when nothing matches well", () => {
  const shot = run.searches[SCREENSHOT]!;
  const count = Number(/^(\d+) tools? match/.exec(shot)?.[1]);
  expect(count, shot).toBeGreaterThan(0);
  expect(count, shot).toBeLessThanOrEqual(30);
  const first = shot.split("\n").find((line) => line.startsWith("- "));
  expect(first, shot).toMatch(/screenshot/);
  expect(first, shot).not.toMatch(/\(weak match\)$/);
  const pasta = run.searches[PASTA]!;
  expect(pasta).toMatch(/^No strong match for "cook a pasta dinner for four people"\./);
  expect(pasta).toContain("mcp({})");
  expect(pasta.split("\n").filter((line) => line.startsWith("- ")).length).toBeLessThanOrEqual(5);
});

it("runs at least 15 published servers", () => {
  expect(COMPAT_SERVERS.filter((s) => !s.startFailure).length).toBeGreaterThanOrEqual(15);
});
