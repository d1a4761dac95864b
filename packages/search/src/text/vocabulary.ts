/**
 * A small, general vocabulary of how people and agents name tool operations
 * differently from how MCP servers describe them: English stop words, groups
 * of interchangeable words for common software actions and objects, and
 * common abbreviations. It is deliberately generic (no server- or tool-specific
 * entries); see the package README for how it was measured.
 */
import { stem } from "./tokenize.js";

const STOP_WORDS = new Set(
  (
    "a an the and or of to in on at for from with by into onto over via as is are was were be been " +
    "do does did doing done can could should would will shall may might must " +
    "i me my mine we us our you your it its this that these those there here " +
    "what which who whom whose how why when where " +
    "please want need some any each every so than then too very just also only " +
    "using use used about up down out off again more most much many"
  ).split(" "),
);

/** Interchangeable words. A query word in a group also matches the others, at a discount. */
const SYNONYM_GROUPS: readonly string[][] = [
  ["create", "add", "new", "make", "insert", "generate", "register"],
  ["delete", "remove", "destroy", "drop", "erase", "wipe", "purge", "clear", "rm"],
  ["get", "fetch", "retrieve", "read", "show", "view", "display", "obtain", "load", "inspect"],
  ["list", "enumerate", "browse", "all", "ls"],
  ["update", "edit", "modify", "change", "patch", "alter", "set", "replace", "amend"],
  ["search", "find", "query", "lookup", "locate", "seek", "grep", "look"],
  ["start", "begin", "launch", "spawn", "boot", "spin"],
  ["stop", "kill", "terminate", "halt", "end", "abort", "cancel"],
  ["send", "post", "publish", "notify", "deliver"],
  ["message", "msg", "sms", "text", "chat"],
  ["repository", "repo"],
  ["directory", "folder", "dir"],
  ["image", "picture", "photo", "illustration", "img", "icon", "graphic"],
  ["screenshot", "capture", "snapshot"],
  ["log", "history", "journal"],
  ["issue", "ticket", "bug", "task"],
  ["deploy", "ship", "release", "rollout"],
  ["user", "member", "person", "people", "account"],
  ["url", "link", "uri", "page"],
  ["database", "db"],
  ["documentation", "doc", "docs", "manual", "reference"],
  ["configuration", "config", "settings", "setting", "preferences"],
  ["environment", "env"],
  ["navigate", "goto", "visit", "browse", "open"],
  ["web", "internet", "online", "website", "site"],
  ["call", "phone", "dial", "ring"],
  ["download", "export", "save", "pull"],
  ["upload", "import", "push", "put"],
  ["copy", "clone", "duplicate"],
  ["buy", "purchase", "acquire"],
  ["move", "rename", "mv", "transfer", "relocate"],
  ["error", "exception", "failure", "crash", "fault", "problem"],
  ["comment", "note", "annotation", "remark", "reply"],
  ["schedule", "cron", "timer", "recurring"],
  ["email", "mail", "inbox"],
  ["team", "organization", "org", "workspace", "group"],
  ["key", "token", "secret", "credential", "apikey"],
  ["summary", "summarize", "overview", "digest"],
  ["statistics", "stats", "metrics", "analytics", "usage"],
  ["status", "state", "health", "check"],
  ["table", "collection"],
  ["record", "row", "entry", "document", "item"],
  ["describe", "details", "info", "information", "explain"],
  ["scrape", "extract", "crawl", "parse"],
  ["payment", "charge", "pay", "billing", "invoice"],
  ["price", "pricing", "cost"],
  ["size", "scale", "resize"],
  ["wait", "sleep", "pause", "delay"],
  ["click", "press", "tap"],
  ["type", "fill", "enter", "input"],
  ["dialog", "popup", "modal", "alert"],
  ["network", "connection", "throttle", "offline"],
];

/** Abbreviations that stand for several words. */
const ABBREVIATIONS: Readonly<Record<string, string[]>> = {
  pr: ["pull", "request"],
  mr: ["merge", "request"],
  ci: ["check", "status", "workflow"],
  k8s: ["kubernetes"],
  vm: ["virtual", "machine"],
  dm: ["direct", "message"],
  kb: ["knowledge", "base"],
  ui: ["interface"],
};

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}

let synonymsByStem: Map<string, string[]> | undefined;

/** Stems interchangeable with `stemmed` (not including itself). */
export function synonymsOf(stemmed: string): readonly string[] {
  if (!synonymsByStem) {
    const map = new Map<string, Set<string>>();
    for (const group of SYNONYM_GROUPS) {
      const stemsInGroup = group.map(stem);
      for (const s of stemsInGroup) {
        let set = map.get(s);
        if (!set) {
          set = new Set();
          map.set(s, set);
        }
        for (const other of stemsInGroup) if (other !== s) set.add(other);
      }
    }
    synonymsByStem = new Map([...map].map(([key, set]) => [key, [...set]]));
  }
  return synonymsByStem.get(stemmed) ?? [];
}

/** The stems an abbreviation expands to, if `word` is one. */
export function expandAbbreviation(word: string): readonly string[] | undefined {
  return ABBREVIATIONS[word]?.map(stem);
}
