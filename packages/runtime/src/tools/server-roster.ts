/**
 * The server roster at the end of the `mcp` proxy tool's description: which
 * servers exist, so the model knows where to search before it has called
 * anything. Built from config (names, the user's `description`) and cached
 * listings (the head of a server's instructions) — never from live state
 * such as connection status or tool counts — so the same config and cache
 * give the same bytes and the description never breaks a prompt cache by
 * itself.
 *
 * It is part of every model request, so it keeps to a budget
 * (`ROSTER_BUDGET_CHARS`): every name first, in config order; then a short
 * quoted head for the first servers, in config order, until one does not
 * fit; when the names alone do not fit, the names that fit and how many
 * more `mcp({})` lists.
 *
 * Text from servers (instructions) and from config is flattened to one
 * line, control characters and double quotes removed, and cut to its first
 * few words inside quotes, so it reads as a label and cannot pose as
 * instructions of ours.
 */
import { instructionsHead } from "@pi-mcp-adapter/catalog";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import { descriptionFirstLine } from "../format/description-text.js";

/** The roster's size in characters; 38 server names of typical length fit (about 110 tokens). */
export const ROSTER_BUDGET_CHARS = 440;
/** The longest head (description or instructions) shown for one server. */
export const ROSTER_HEAD_CHARS = 60;
/** Longer server names are cut (names come from config keys; 64 is the tool-name limit). */
const NAME_CHARS = 64;

/** What the roster reads of a server: a startup snapshot's server fits. */
export interface RosterServer {
  server: { name: string; description?: string };
  /** The cached listing, when there is one (its `instructions`). */
  listing?: { instructions?: string };
}

/** `Servers: a, b ("head"), c.`, kept within `budget` characters; empty without servers. */
export function serverRoster(servers: readonly RosterServer[], budget = ROSTER_BUDGET_CHARS): string {
  if (servers.length === 0) return "";
  const { entries, more } = rosterEntries(servers, budget);
  const named = entries.filter((e): e is string => e !== undefined).join(", ");
  return more > 0 ? `${ROSTER_PREFIX}${named}${moreText(more)}` : `${ROSTER_PREFIX}${named}.`;
}

/**
 * Each server's entry in the roster (its name, with its quoted head when
 * that fit), in the order given; `undefined` for a server the roster only
 * counts in "and N more". `more` is that count.
 */
export function rosterEntries(
  servers: readonly RosterServer[],
  budget = ROSTER_BUDGET_CHARS,
): { entries: (string | undefined)[]; more: number } {
  const names = servers.map((s) => oneLine(s.server.name, NAME_CHARS));
  const all = `${ROSTER_PREFIX}${names.join(", ")}.`;
  if (all.length > budget) {
    const shown = namesThatFit(names, budget);
    return { entries: names.map((n, i) => (i < shown ? n : undefined)), more: names.length - shown };
  }
  // Every name fits: heads follow in config order until the first that does not fit.
  const entries = [...names];
  let length = all.length;
  for (const [i, s] of servers.entries()) {
    const head = headOf(s);
    if (!head) continue;
    const quoted = ` ("${head}")`;
    if (length + quoted.length > budget) break;
    entries[i] += quoted;
    length += quoted.length;
  }
  return { entries, more: 0 };
}

const ROSTER_PREFIX = "Servers: ";
const moreText = (n: number) => ` and ${n} more (mcp({}) lists them).`;

/** How many names fit before "and N more (mcp({}) lists them)." within `budget`. */
function namesThatFit(names: readonly string[], budget: number): number {
  let shown = 0;
  let length = ROSTER_PREFIX.length;
  for (const name of names) {
    const next = length + (shown ? 2 : 0) + name.length;
    if (next + moreText(names.length - shown - 1).length > budget) break;
    length = next;
    shown++;
  }
  return shown;
}

/**
 * The user's description (all of its lines), else the server's instructions
 * (their first line that is not blank): the first sentence, no double quotes.
 */
function headOf(s: RosterServer): string {
  const description = s.server.description?.trim();
  const text = description ? description.replace(/\s+/g, " ") : descriptionFirstLine(s.listing?.instructions);
  if (!text) return "";
  return instructionsHead(stripControlSequences(text), ROSTER_HEAD_CHARS).replace(/"/g, "'");
}

function oneLine(text: string, max: number): string {
  const flat = stripControlSequences(text).replace(/\s+/g, " ").replace(/"/g, "'").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
