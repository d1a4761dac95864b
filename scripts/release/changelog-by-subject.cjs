/**
 * The changelog generator `.changeset/config.json` names. Changesets calls it once per changeset line
 * and puts the lines under "Major/Minor/Patch Changes"; we tag each line with its subject and kind
 * (`<!-- subject: … | kind: … -->`) so that `group-changelogs.mjs`, run by `npm run release:version`
 * right after `changeset version`, regroups the new section by subject. Without that step the tags are
 * invisible comments and the changelog is still valid Markdown.
 */
const { subjectOf, DEPENDENCIES } = require("./changelog-subjects.cjs");

const tag = (subject, kind) => `<!-- subject: ${subject} | kind: ${kind} -->`;

/** A summary as one bullet: its first line after the dash, further lines indented under it. */
function bullet(prefix, text) {
  const [first = "", ...rest] = text.trim().split("\n");
  return [`- ${prefix}${first}`, ...rest.map((line) => (line.trim() ? `  ${line}` : ""))].join("\n");
}

async function getReleaseLine(changeset, type) {
  const { subject, text } = subjectOf(changeset.id, changeset.summary);
  return bullet(tag(subject, type), text);
}

async function getDependencyReleaseLine(_changesets, dependenciesUpdated) {
  if (dependenciesUpdated.length === 0) return "";
  const names = dependenciesUpdated.map((d) => `\`${d.name}\` ${d.newVersion}`).join(", ");
  return bullet(tag(DEPENDENCIES, "patch"), `Uses ${names}.`);
}

module.exports = { getReleaseLine, getDependencyReleaseLine };
