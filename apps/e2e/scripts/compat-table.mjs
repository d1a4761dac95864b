#!/usr/bin/env node
/**
 * Renders the compatibility suite's last results (`.compat/results.json`,
 * written by test/compat/published-servers.test.ts) as the table in this
 * folder's README, between the `compat-table` markers.
 */
import { readFileSync, writeFileSync } from "node:fs";

const here = new URL("..", import.meta.url);
const results = JSON.parse(readFileSync(new URL(".compat/results.json", here), "utf8"));
const readmeUrl = new URL("README.md", here);
const readme = readFileSync(readmeUrl, "utf8");

const columns = ["connect", "cached", "search", "searchLine", "describe", "offline", "network", "cleanup"];
const mark = (v) => (v.pass === null ? "–" : v.pass ? "✓" : "✗");
const cell = (v) => `${mark(v)} ${v.pass === null ? "" : v.detail.replaceAll("|", "\\|")}`.trim();
const rows = results.servers.map((s) =>
  [`\`${s.pkg}\` ${s.version}`, s.toolCount ?? "–", ...columns.map((c) => cell(s.checks[c]))].join(" | "),
);
const table = [
  `Run of ${results.date.slice(0, 10)}: ${results.servers.length} servers, ${Math.round(results.wallMs / 1000)} s for the CLI part.`,
  "",
  `| server | tools | ${columns.join(" | ")} |`,
  `|${" --- |".repeat(columns.length + 2)}`,
  ...rows.map((r) => `| ${r} |`),
].join("\n");

const start = "<!-- compat-table:start -->";
const end = "<!-- compat-table:end -->";
const from = readme.indexOf(start);
const to = readme.indexOf(end);
if (from < 0 || to < 0) throw new Error(`README.md lacks the ${start} … ${end} markers`);
writeFileSync(readmeUrl, `${readme.slice(0, from + start.length)}\n${table}\n${readme.slice(to)}`);
console.log(`README.md: table of ${results.servers.length} servers written`);
