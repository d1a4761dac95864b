/**
 * Form-mode elicitation as host dialogs: the conversation. Each field maps to
 * one dialog kind: `input` for text and numbers, `select` for enums,
 * `confirm` for booleans. A bad answer asks the field again with the problem
 * in its title; a review step comes before anything is sent. Refusing
 * ("Decline") is `decline`; dismissing any dialog is `cancel`. The server's
 * message is shown without terminal control or bidi characters, like the
 * field text `elicitation-form-schema.ts` cleans; answers are checked by
 * `elicitation-form-answers.ts`.
 */
import type { ElicitResult } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type { HostDialogs } from "../host.js";
import { checkTextAnswer } from "./elicitation-form-answers.js";
import { type FormField, parseFormSchema } from "./elicitation-form-schema.js";

// Kept importable from here, where they were before the split.
export { checkTextAnswer } from "./elicitation-form-answers.js";
export {
  type EnumOption,
  type FormField,
  FormSchemaError,
  parseFormSchema,
} from "./elicitation-form-schema.js";

type Answer = string | number | boolean | string[];

/** Choices of the first dialog, and of the review step. */
export const FORM_START = ["Fill in the form", "Decline"] as const;
export const FORM_REVIEW = ["Send", "Edit answers", "Decline"] as const;
/** The extra choice of an optional enum, and the last choice of a multi-select. */
export const LEAVE_EMPTY = "(leave empty)";
export const MULTI_DONE = "Done";

type Answers = Map<string, Answer>;
const CANCELLED = Symbol("cancelled");

/**
 * Asks for a form through `dialogs` and returns the answer for the server.
 * Every dialog title names `server`. Throws `FormSchemaError` (before any
 * dialog) when the schema is not a form.
 */
export async function runElicitationForm(
  dialogs: HostDialogs,
  server: string,
  message: string,
  requestedSchema: unknown,
  signal?: AbortSignal,
): Promise<ElicitResult> {
  const fields = parseFormSchema(requestedSchema);
  message = stripControlSequences(message);
  const options = signal ? { signal } : undefined;
  const start = await dialogs.select(
    `MCP server "${server}" asks for input:\n${message}`,
    [...FORM_START],
    options,
  );
  if (start === undefined) return { action: "cancel" };
  if (start === "Decline") return { action: "decline" };
  let answers: Answers = new Map();
  for (;;) {
    const filled = await fillFields(dialogs, server, fields, answers, options);
    if (filled === CANCELLED) return { action: "cancel" };
    answers = filled;
    const review = await dialogs.select(
      reviewTitle(server, message, fields, answers),
      [...FORM_REVIEW],
      options,
    );
    if (review === undefined) return { action: "cancel" };
    if (review === "Decline") return { action: "decline" };
    if (review === "Send") return { action: "accept", content: Object.fromEntries(answers) };
  }
}

async function fillFields(
  dialogs: HostDialogs,
  server: string,
  fields: FormField[],
  previous: Answers,
  options: { signal: AbortSignal } | undefined,
): Promise<Answers | typeof CANCELLED> {
  const answers: Answers = new Map();
  for (const field of fields) {
    // On "Edit answers" the earlier answer is the default.
    const current = previous.has(field.key) ? previous.get(field.key) : field.default;
    const answer = await askField(dialogs, server, field, current, options);
    if (answer === CANCELLED) return CANCELLED;
    if (answer !== undefined) answers.set(field.key, answer);
  }
  return answers;
}

/** One field's answer; `undefined` leaves an optional field out. */
async function askField(
  dialogs: HostDialogs,
  server: string,
  field: FormField,
  current: Answer | undefined,
  options: { signal: AbortSignal } | undefined,
): Promise<Answer | undefined | typeof CANCELLED> {
  const head = fieldTitle(server, field);
  switch (field.kind) {
    case "boolean": {
      const hint = current === undefined ? "" : ` (default: ${current ? "yes" : "no"})`;
      return dialogs.confirm(head, `${field.description ?? field.label}${hint}`, options);
    }
    case "enum": {
      const choices = field.options.map((o) => (o.value === current ? `${o.label} (default)` : o.label));
      // The default first, so the pre-selected choice is the one already chosen.
      const ordered = [...choices].sort(
        (a, b) => Number(b.endsWith(" (default)")) - Number(a.endsWith(" (default)")),
      );
      if (!field.required) ordered.push(LEAVE_EMPTY);
      // A host answering with text that is none of the choices gets the question again.
      for (;;) {
        const picked = await dialogs.select(head, ordered, options);
        if (picked === undefined) return CANCELLED;
        if (picked === LEAVE_EMPTY) return undefined;
        const option = field.options[choices.indexOf(picked)];
        if (option) return option.value;
      }
    }
    case "multi":
      return askMulti(dialogs, head, field, Array.isArray(current) ? current : [], options);
    default: {
      let problem = "";
      for (;;) {
        const placeholder = current !== undefined ? `default: ${current}` : (formatHint(field) ?? "");
        const typed = await dialogs.input(`${head}${problem}`, placeholder, options);
        if (typed === undefined) return CANCELLED;
        if (typed === "") {
          if (current !== undefined) return current;
          if (!field.required) return undefined;
          problem = "\n⚠ required: enter a value";
          continue;
        }
        const checked = checkTextAnswer(field, typed);
        if ("value" in checked) return checked.value;
        problem = `\n⚠ ${JSON.stringify(typed)}: ${checked.error}`;
      }
    }
  }
}

async function askMulti(
  dialogs: HostDialogs,
  head: string,
  field: Extract<FormField, { kind: "multi" }>,
  initial: string[],
  options: { signal: AbortSignal } | undefined,
): Promise<string[] | undefined | typeof CANCELLED> {
  const selected = new Set(initial);
  let problem = "";
  for (;;) {
    const choices = field.options.map((o) => `${selected.has(o.value) ? "[x]" : "[ ]"} ${o.label}`);
    const picked = await dialogs.select(
      `${head}\nChoose any; pick "${MULTI_DONE}" when finished.${problem}`,
      [...choices, MULTI_DONE],
      options,
    );
    if (picked === undefined) return CANCELLED;
    problem = "";
    if (picked === MULTI_DONE) {
      const count = selected.size;
      if (field.minItems !== undefined && count < field.minItems)
        problem = `\n⚠ choose at least ${field.minItems}`;
      else if (field.maxItems !== undefined && count > field.maxItems)
        problem = `\n⚠ choose at most ${field.maxItems}`;
      else if (count === 0 && field.required) problem = "\n⚠ required: choose at least one";
      else return count === 0 ? undefined : field.options.map((o) => o.value).filter((v) => selected.has(v));
      continue;
    }
    const option = field.options[choices.indexOf(picked)];
    if (!option) continue;
    if (selected.has(option.value)) selected.delete(option.value);
    else selected.add(option.value);
  }
}

function fieldTitle(server: string, field: FormField): string {
  const lines = [`MCP server "${server}" · ${field.label}${field.required ? " (required)" : ""}`];
  if (field.description && field.description !== field.label) lines.push(field.description);
  const rules = fieldRules(field);
  if (rules) lines.push(rules);
  return lines.join("\n");
}

function fieldRules(field: FormField): string | undefined {
  if (field.kind === "number") {
    const kind = field.integer ? "a whole number" : "a number";
    if (field.minimum !== undefined && field.maximum !== undefined)
      return `${kind} from ${field.minimum} to ${field.maximum}`;
    if (field.minimum !== undefined) return `${kind}, at least ${field.minimum}`;
    if (field.maximum !== undefined) return `${kind}, at most ${field.maximum}`;
    return kind;
  }
  if (field.kind === "string") {
    const parts = [field.format ? `format: ${field.format}` : ""];
    if (field.minLength !== undefined) parts.push(`at least ${field.minLength} characters`);
    if (field.maxLength !== undefined) parts.push(`at most ${field.maxLength} characters`);
    return parts.filter(Boolean).join(", ") || undefined;
  }
  if (field.kind === "multi") {
    if (field.minItems !== undefined && field.maxItems !== undefined)
      return `choose ${field.minItems} to ${field.maxItems}`;
  }
  return undefined;
}

const FORMAT_HINTS = {
  email: "name@example.com",
  uri: "https://…",
  date: "YYYY-MM-DD",
  "date-time": "YYYY-MM-DDTHH:MM:SSZ",
} as const;

function formatHint(field: FormField): string | undefined {
  return field.kind === "string" && field.format ? FORMAT_HINTS[field.format] : undefined;
}

function reviewTitle(server: string, message: string, fields: FormField[], answers: Answers): string {
  const lines = fields.map((field) => {
    const value = answers.get(field.key);
    return `  ${field.label}: ${value === undefined ? "(empty)" : show(field, value)}`;
  });
  return [`Send these answers to MCP server "${server}"?`, message, ...lines].join("\n");
}

function show(field: FormField, value: Answer): string {
  const label = (v: string) =>
    field.kind === "enum" || field.kind === "multi"
      ? (field.options.find((o) => o.value === v)?.label ?? v)
      : v;
  if (Array.isArray(value)) return value.map(label).join(", ");
  if (typeof value === "boolean") return value ? "yes" : "no";
  return label(String(value));
}
