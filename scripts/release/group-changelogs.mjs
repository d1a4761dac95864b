#!/usr/bin/env node
/**
 * Regroups the section `changeset version` just wrote at the top of each package's CHANGELOG.md: the
 * bullets `changelog-by-subject.cjs` tagged go under one `###` heading per subject (in the order of
 * `changelog-subjects.cjs`), new things before fixes within a subject, and an `intro` changeset becomes
 * the section's opening paragraph. A section without tags (already grouped) is left as it is.
 *
 * `node scripts/release/group-changelogs.mjs [CHANGELOG.md …]` (default: every package's).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const { SUBJECT_ORDER, INTRO } = require("./changelog-subjects.cjs");
const TAG = /^- <!-- subject: (.+?) \| kind: (major|minor|patch) -->/;
const KIND_ORDER = { major: 0, minor: 1, patch: 2 };

/** The bullets of a section body: each starts with "- " and takes the indented lines after it. */
function bulletsOf(lines) {
  const bullets = [];
  for (const line of lines) {
    if (line.startsWith("- ")) bullets.push([line]);
    else if (bullets.length > 0 && (line.startsWith("  ") || line === "")) bullets.at(-1).push(line);
  }
  return bullets.map((b) => b.join("\n").trimEnd());
}

/** One version section (its `## x.y.z` line through the line before the next `## `), regrouped. */
export function groupSection(section) {
  const [heading, ...body] = section.split("\n");
  const tagged = bulletsOf(body.filter((line) => !line.startsWith("### ")))
    .map((text) => ({ text, match: TAG.exec(text) }))
    .filter((b) => b.match);
  if (tagged.length === 0) return section;
  const entries = tagged.map(({ text, match }) => ({
    subject: match[1],
    kind: match[2],
    text: `- ${text.slice(match[0].length)}`,
  }));
  const intro = entries
    .filter((e) => e.subject === INTRO)
    .map((e) => e.text.replace(/^- /, "").replace(/\n {2}/g, "\n"));
  const rank = (subject) => {
    const at = SUBJECT_ORDER.indexOf(subject);
    return at < 0 ? SUBJECT_ORDER.length - 2 : at; // an unknown override sits before "Other changes"
  };
  const subjects = [...new Set(entries.map((e) => e.subject).filter((s) => s !== INTRO))].sort(
    (a, b) => rank(a) - rank(b) || a.localeCompare(b),
  );
  const parts = [heading, ...intro];
  for (const subject of subjects) {
    const items = entries
      .filter((e) => e.subject === subject)
      .sort((a, b) => KIND_ORDER[a.kind] - KIND_ORDER[b.kind]);
    parts.push(`### ${subject}`, items.map((e) => e.text).join("\n"));
  }
  return `${parts.join("\n\n")}\n`;
}

/** A whole CHANGELOG.md with its first version section regrouped. */
export function groupChangelog(text) {
  const start = text.search(/^## /m);
  if (start < 0) return text;
  const next = text.slice(start + 3).search(/^## /m);
  const end = next < 0 ? text.length : start + 3 + next;
  const section = text.slice(start, end).trimEnd();
  const grouped = groupSection(section);
  if (grouped === section) return text;
  const rest = text.slice(end);
  return `${text.slice(0, start)}${grouped}${rest ? `\n${rest}` : ""}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = fileURLToPath(new URL("../..", import.meta.url));
  const files =
    process.argv.length > 2
      ? process.argv.slice(2)
      : readdirSync(join(root, "packages"))
          .map((name) => join(root, "packages", name, "CHANGELOG.md"))
          .filter((file) => existsSync(file));
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const grouped = groupChangelog(text);
    if (grouped !== text) writeFileSync(file, grouped);
  }
  console.log(`grouped ${files.length} changelog(s) by subject`);
}
