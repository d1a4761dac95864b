/**
 * The argument line of a prompt command (`/mcp__<server>__<prompt> ...`):
 * words split like a shell does (spaces separate; '…' is literal; "…" and a
 * backslash escape), each word either `name=value` for a declared argument
 * or a positional value for the next argument not given yet, in declared
 * order. Required arguments are checked here, before `prompts/get`, with a
 * message naming the missing ones and the usage. Pi-free: the Pi shell's
 * prompt commands and the CLI's `prompt` share it.
 */
import type { RemotePrompt } from "@pi-mcp-adapter/core";

type PromptArgument = NonNullable<RemotePrompt["arguments"]>[number];

export type PromptArgumentsResult =
  | { ok: true; args: Record<string, string> }
  | { ok: false; message: string };

/** Splits an argument line into words, shell-style; an unclosed quote runs to the end of the line. */
export function splitCommandLine(line: string): string[] {
  return scan(line).words.map((w) => w.text);
}

/** The usage line of a prompt command: required arguments as `<name>`, optional ones as `[name]`. */
export function promptUsage(command: string, prompt: Pick<RemotePrompt, "arguments">): string {
  const args = prompt.arguments ?? [];
  const shown = args.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
  const named = args.length ? ` (or by name: ${args.map((a) => `${a.name}=…`).join(" ")})` : "";
  return `${[`/${command}`, ...shown].join(" ")}${named}`;
}

/** The arguments `line` gives `prompt`, or a message saying what is wrong and how to call it. */
export function parsePromptArguments(
  line: string,
  prompt: Pick<RemotePrompt, "name" | "arguments">,
  command = prompt.name,
): PromptArgumentsResult {
  const declared = prompt.arguments ?? [];
  const usage = `Usage: ${promptUsage(command, prompt)}`;
  const args: Record<string, string> = {};
  const positional: string[] = [];
  for (const word of splitCommandLine(line)) {
    const named = namedWord(word, declared);
    if (named) args[named.name] = named.value;
    else positional.push(word);
  }
  for (const value of positional) {
    const next = declared.find((a) => args[a.name] === undefined);
    if (!next) {
      const extra = declared.length ? `more values than it has arguments` : `no arguments`;
      return { ok: false, message: `Prompt ${prompt.name} takes ${extra} (got "${value}"). ${usage}` };
    }
    args[next.name] = value;
  }
  const missing = declared.filter((a) => a.required && !args[a.name]).map((a) => a.name);
  if (missing.length) {
    const list = missing.join(", ");
    return {
      ok: false,
      message: `Prompt ${prompt.name} needs ${missing.length === 1 ? "argument" : "arguments"} ${list}. ${usage}`,
    };
  }
  return { ok: true, args };
}

/** Where completion applies in a partly typed argument line. */
export interface CompletionPoint {
  /** The argument being typed. */
  argument: string;
  /** What is typed of its value so far. */
  value: string;
  /** Values of the arguments given before it (the server may narrow by them). */
  context: Record<string, string>;
  /** The line up to the current word; a completed value is appended to it. */
  head: string;
  /** `name=` when the current word names its argument (kept in the completed word). */
  key: string;
}

/** Which argument the end of `line` is typing, or undefined when it names no declared argument. */
export function completionPoint(
  line: string,
  prompt: Pick<RemotePrompt, "arguments">,
): CompletionPoint | undefined {
  const declared = prompt.arguments ?? [];
  const { words, trailingSpace } = scan(line);
  const current = trailingSpace || words.length === 0 ? { text: "", start: line.length } : words.pop()!;
  const context: Record<string, string> = {};
  const positional: string[] = [];
  for (const { text } of words) {
    const named = namedWord(text, declared);
    if (named) context[named.name] = named.value;
    else positional.push(text);
  }
  // Positional words fill the arguments not named, in declared order.
  const free = declared.filter((a) => context[a.name] === undefined);
  for (const [i, value] of positional.entries()) {
    const a = free[i];
    if (a) context[a.name] = value;
  }
  const head = line.slice(0, current.start);
  const named = namedWord(current.text, declared);
  if (named)
    return {
      argument: named.name,
      value: named.value,
      context: without(context, named.name),
      head,
      key: `${named.name}=`,
    };
  const next = declared.find((a) => context[a.name] === undefined);
  return next ? { argument: next.name, value: current.text, context, head, key: "" } : undefined;
}

/** A completed value as a word for the line: quoted when it holds spaces or quotes. */
export function quoteWord(value: string): string {
  return /[\s'"\\]/.test(value) ? `"${value.replace(/(["\\])/g, "\\$1")}"` : value;
}

function without(record: Record<string, string>, key: string): Record<string, string> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}

function namedWord(word: string, declared: PromptArgument[]): { name: string; value: string } | undefined {
  const eq = word.indexOf("=");
  if (eq <= 0) return undefined;
  const name = word.slice(0, eq);
  return declared.some((a) => a.name === name) ? { name, value: word.slice(eq + 1) } : undefined;
}

/** Words with where each starts in the line, and whether the line ends between words. */
function scan(line: string): { words: { text: string; start: number }[]; trailingSpace: boolean } {
  const words: { text: string; start: number }[] = [];
  let text = "";
  let start = -1;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else text += c;
      continue;
    }
    if (c === "\\" && i + 1 < line.length && (quote === undefined || /["\\$`]/.test(line[i + 1] as string))) {
      if (start < 0) start = i;
      text += line[++i];
      continue;
    }
    if (quote === '"') {
      if (c === '"') quote = undefined;
      else text += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (start >= 0) words.push({ text, start });
      text = "";
      start = -1;
      continue;
    }
    if (start < 0) start = i;
    if (c === "'" || c === '"') quote = c;
    else text += c;
  }
  if (start >= 0) words.push({ text, start });
  const trailingSpace = quote === undefined && start < 0 && line.length > 0;
  return { words, trailingSpace };
}
