#!/usr/bin/env node
/**
 * Renders the compatibility suite's last results (`.compat/results.json`,
 * written by test/compat/published-servers.test.ts) as the table in this
 * folder's README, between the `compat-table` markers.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = new URL("..", import.meta.url);
const results = JSON.parse(readFileSync(new URL(".compat/results.json", here), "utf8"));
const readmeUrl = new URL("README.md", here);
const readme = readFileSync(readmeUrl, "utf8");

const columns = ["connect", "cached", "search", "searchLine", "describe", "offline", "network", "cleanup"];
const clip = (text, max) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
/** A cell: ✓ / ✗ / –, with what a reader needs (the rank, the server's own error text, what failed). */
function cell(column, v) {
  if (v.pass === null) return "–";
  const known = v.known ? ` (known: ${v.known.split(":")[0]})` : "";
  if (!v.pass) return `✗ ${clip(v.detail, 90)}${known}`;
  if (column === "connect" && !/^\d+ tools$/.test(v.detail))
    return `✓ ${clip(v.detail.replace(/^.*server stderr: /, ""), 70)}`;
  if (column === "search") return `✓ ${v.detail.split(" ")[0]}`;
  if (column === "offline") return `✓ ${v.detail}`;
  if (column === "network") return `✓ ${clip(v.detail.replace(/^(error|result): /, ""), 70)}`;
  return `✓${known}`;
}
const rows = results.servers.map((s) =>
  [
    `\`${s.pkg}\` ${s.version}`,
    s.toolCount ?? "–",
    s.checks.search.pass === null ? "–" : `"${s.query}"`,
    ...columns.map((c) => cell(c, s.checks[c])),
  ]
    .map((text) => String(text).replaceAll("|", "\\|"))
    .join(" | "),
);
const table = [
  `Run of ${results.date.slice(0, 10)}: ${results.servers.length} servers; the CLI part took ${Math.round(results.wallMs / 1000)} s.`,
  "",
  `| server | tools | search task | ${columns.join(" | ")} |`,
  `|${" --- |".repeat(columns.length + 3)}`,
  ...rows.map((r) => `| ${r} |`),
].join("\n");

const start = "<!-- compat-table:start -->";
const end = "<!-- compat-table:end -->";
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from < 0 || to < 0) throw new Error(`README.md lacks the ${start} … ${end} markers`);
writeFileSync(readmeUrl, `${readme.slice(0, from + start.length)}\n${table}\n${readme.slice(to)}`);
// The repository's formatter aligns the table's columns (as `biome check` wants them).
const biome = fileURLToPath(new URL("../../node_modules/.bin/biome", here));
execFileSync(biome, ["format", "--write", fileURLToPath(readmeUrl)], { stdio: "ignore" });
console.log(`README.md: table of ${results.servers.length} servers written`);
