/**
 * The subjects a changelog is grouped by, in the order a user reads them, and how a changeset finds its
 * subject: a leading `<!-- subject: Name -->` in its summary wins; otherwise the first subject whose
 * pattern matches the first word of the changeset's file name (`config-…`), then the whole name, then
 * the subject whose pattern matches its summary most often (the earlier row on a tie).
 * A new subject is a new row here.
 */
const SUBJECTS = [
  { name: "Getting started", pattern: /initial|walking[- ]skeleton|first release/i },
  { name: "Shared servers", pattern: /shared[- ]server|daemon|across[- ]terminals/i },
  {
    name: "OAuth and credentials",
    pattern: /oauth|keyring|keytar|libsecret|bearer|api[- ]key|dpop|token store|login/i,
  },
  { name: "Tool search", pattern: /search|rank|lexicon|bm25|word[- ]vector|regex/i },
  { name: "Direct tools", pattern: /direct[- ]tools?/i },
  { name: "Scripts", pattern: /\bscripts?\b/i },
  { name: "Approval and trust", pattern: /approv|trust|pinning|pinned|fingerprint/i },
  { name: "MCP Apps and the panel", pattern: /mcp[- ]apps?|apps-|ui-|viewer|panel|display|iframe/i },
  {
    name: "Tasks, prompts, resources and elicitation",
    pattern: /tasks?\b|prompts?|resources?|elicitation|sampling|roots|skills?/i,
  },
  { name: "Tool results", pattern: /output[- ]guard|spill|result|truncat|toon|escape/i },
  {
    name: "Configuration",
    pattern: /config|setup|import|jsonc|settings|mcp\.json|server-add|install-from-url/i,
  },
  { name: "Commands and status", pattern: /cli-|command|status|\blogs?\b|stats|notice|roster|footer/i },
  { name: "Start-up and speed", pattern: /perf|lazy|start[- ]?up|warm|cache|bundle|fast|once\b/i },
  { name: "Tool catalog", pattern: /catalog|listing/i },
  {
    name: "Connections and servers",
    pattern: /transport|stdio|http|sse|npx|sandbox|protocol|restart|timeout|connect|server|windows|frame/i,
  },
];
const OTHER = "Other changes";
const INTRO = "intro";
const DEPENDENCIES = "Dependencies";
const ORDER = [...SUBJECTS.map((s) => s.name), OTHER, DEPENDENCIES];

const OVERRIDE = /^\s*<!--\s*subject:\s*([^>]+?)\s*-->\s*/i;

/** The subject of one changeset (its id is the file name without `.md`), and its summary without the override. */
function subjectOf(id, summary) {
  const override = OVERRIDE.exec(summary);
  if (override) return { subject: override[1], text: summary.slice(override[0].length) };
  const firstWord = id.split("-")[0] ?? "";
  const byName =
    SUBJECTS.find((s) => s.pattern.test(firstWord)) ??
    SUBJECTS.find((s) => s.pattern.test(id.replace(/-/g, " ")) || s.pattern.test(id));
  if (byName) return { subject: byName.name, text: summary };
  let best = { name: OTHER, hits: 0 };
  for (const s of SUBJECTS) {
    const hits = summary.match(new RegExp(s.pattern.source, "gi"))?.length ?? 0;
    if (hits > best.hits) best = { name: s.name, hits };
  }
  return { subject: best.name, text: summary };
}

module.exports = { subjectOf, SUBJECT_ORDER: ORDER, INTRO, DEPENDENCIES, OTHER };
