/**
 * The subjects a changelog is grouped by, in the order a user reads them, and how a changeset finds its
 * subject: a leading `<!-- subject: Name -->` in its summary wins; otherwise the first subject whose
 * pattern matches the changeset's file name, then the first whose pattern matches its summary.
 * A new subject is a new row here.
 */
const SUBJECTS = [
  { name: "Shared servers", pattern: /shared[- ]server|daemon|across[- ]terminals/i },
  {
    name: "OAuth and credentials",
    pattern: /oauth|keyring|keytar|libsecret|bearer|api[- ]key|dpop|token store|login/i,
  },
  { name: "Tool search", pattern: /search|rank|lexicon|bm25|word[- ]vector|regex/i },
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
  { name: "Commands and status", pattern: /cli-|command|status|logs?\b|stats|notice|roster|footer/i },
  { name: "Start-up and speed", pattern: /perf|lazy|start[- ]?up|warm|cache|bundle|fast|once\b/i },
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
  const byName = SUBJECTS.find((s) => s.pattern.test(id.replace(/-/g, " ")) || s.pattern.test(id));
  const bySummary = byName ?? SUBJECTS.find((s) => s.pattern.test(summary));
  return { subject: bySummary?.name ?? OTHER, text: summary };
}

module.exports = { subjectOf, SUBJECT_ORDER: ORDER, INTRO, DEPENDENCIES, OTHER };
