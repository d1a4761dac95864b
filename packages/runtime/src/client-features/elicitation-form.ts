/**
 * Form-mode elicitation as host dialogs. The spec restricts `requestedSchema`
 * to a flat object of primitive fields (strings with an optional format,
 * numbers, integers, booleans, single and multi-select enums), so each field
 * maps to one dialog kind: `input` for text and numbers, `select` for enums,
 * `confirm` for booleans. Answers are checked as they are typed and the field
 * is asked again with the problem in its title; a review step comes before
 * anything is sent. Refusing ("Decline") is `decline`; dismissing any dialog
 * is `cancel`. Text the server wrote (message, titles, descriptions, choice
 * labels) is shown without terminal control or bidi characters, so it cannot
 * restyle or reorder the dialog.
 */
import type { ElicitResult } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type { HostDialogs } from "../host.js";

type Answer = string | number | boolean | string[];

interface FieldBase {
  key: string;
  /** What the user reads: the schema's `title`, else the key. */
  label: string;
  description?: string;
  required: boolean;
}

export type FormField =
  | (FieldBase & {
      kind: "string";
      format?: "email" | "uri" | "date" | "date-time";
      minLength?: number;
      maxLength?: number;
      default?: string;
    })
  | (FieldBase & { kind: "number"; integer: boolean; minimum?: number; maximum?: number; default?: number })
  | (FieldBase & { kind: "boolean"; default?: boolean })
  | (FieldBase & { kind: "enum"; options: EnumOption[]; default?: string })
  | (FieldBase & {
      kind: "multi";
      options: EnumOption[];
      minItems?: number;
      maxItems?: number;
      default?: string[];
    });

export interface EnumOption {
  value: string;
  label: string;
}

/** A schema the form cannot show; the message names the field. Becomes an Invalid-params error to the server. */
export class FormSchemaError extends Error {
  readonly code = -32602;
}

const FORMATS = new Set(["email", "uri", "date", "date-time"]);

/** The fields of a `requestedSchema`, in the server's order; throws `FormSchemaError` for anything else. */
export function parseFormSchema(schema: unknown): FormField[] {
  const root = schema as { type?: unknown; properties?: unknown; required?: unknown } | undefined;
  if (!root || typeof root !== "object" || (root.type !== undefined && root.type !== "object")) {
    throw new FormSchemaError("requestedSchema must be an object schema");
  }
  const properties = (root.properties ?? {}) as Record<string, unknown>;
  if (typeof properties !== "object")
    throw new FormSchemaError("requestedSchema.properties must be an object");
  const required = new Set(Array.isArray(root.required) ? root.required.map(String) : []);
  return Object.entries(properties).map(([key, raw]) => parseField(key, raw, required.has(key)));
}

function parseField(key: string, raw: unknown, required: boolean): FormField {
  const where = `requestedSchema.properties.${key}`;
  if (!raw || typeof raw !== "object") throw new FormSchemaError(`${where} must be a schema object`);
  const p = raw as Record<string, unknown>;
  const base: FieldBase = {
    key,
    label: stripControlSequences(typeof p.title === "string" && p.title ? p.title : key),
    ...(typeof p.description === "string" ? { description: stripControlSequences(p.description) } : {}),
    required,
  };
  const num = (name: string) => (typeof p[name] === "number" ? (p[name] as number) : undefined);
  const options = enumOptions(p);
  if (p.type === "string" && options) {
    return {
      ...base,
      kind: "enum",
      options,
      ...(typeof p.default === "string" ? { default: p.default } : {}),
    };
  }
  switch (p.type) {
    case "string": {
      const format = typeof p.format === "string" ? p.format : undefined;
      if (format !== undefined && !FORMATS.has(format)) {
        throw new FormSchemaError(`${where}: format "${format}" is not one of email, uri, date, date-time`);
      }
      return {
        ...base,
        kind: "string",
        ...(format ? { format: format as "email" } : {}),
        ...defined("minLength", num("minLength")),
        ...defined("maxLength", num("maxLength")),
        ...(typeof p.default === "string" ? { default: p.default } : {}),
      };
    }
    case "number":
    case "integer":
      return {
        ...base,
        kind: "number",
        integer: p.type === "integer",
        ...defined("minimum", num("minimum")),
        ...defined("maximum", num("maximum")),
        ...defined("default", num("default")),
      };
    case "boolean":
      return { ...base, kind: "boolean", ...(typeof p.default === "boolean" ? { default: p.default } : {}) };
    case "array": {
      const items = enumOptions((p.items ?? {}) as Record<string, unknown>);
      if (!items)
        throw new FormSchemaError(
          `${where}: an array field must list its choices in items.enum or items.anyOf`,
        );
      const defaults = Array.isArray(p.default)
        ? p.default.filter((v): v is string => typeof v === "string")
        : undefined;
      return {
        ...base,
        kind: "multi",
        options: items,
        ...defined("minItems", num("minItems")),
        ...defined("maxItems", num("maxItems")),
        ...(defaults ? { default: defaults } : {}),
      };
    }
    default:
      throw new FormSchemaError(
        `${where}: type ${JSON.stringify(p.type)} is not a form field (string, number, integer, boolean, or an enum array)`,
      );
  }
}

/** Choices from `enum` (+ legacy `enumNames`), or titled `oneOf` / `anyOf` of `{ const, title }`. */
function enumOptions(p: Record<string, unknown>): EnumOption[] | undefined {
  if (Array.isArray(p.enum)) {
    const names = Array.isArray(p.enumNames) ? p.enumNames : [];
    return p.enum.map((value, i) => ({
      value: String(value),
      label: stripControlSequences(typeof names[i] === "string" ? (names[i] as string) : String(value)),
    }));
  }
  const titled = Array.isArray(p.oneOf) ? p.oneOf : Array.isArray(p.anyOf) ? p.anyOf : undefined;
  if (!titled) return undefined;
  return titled.map((entry) => {
    const e = entry as { const?: unknown; title?: unknown };
    return {
      value: String(e.const),
      label: stripControlSequences(typeof e.title === "string" ? e.title : String(e.const)),
    };
  });
}

function defined<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

/** The value typed for a string or number field, or the problem with it. Empty text is "no answer". */
export function checkTextAnswer(
  field: Extract<FormField, { kind: "string" | "number" }>,
  text: string,
): { value: string | number } | { error: string } {
  if (field.kind === "number") {
    const trimmed = text.trim();
    const value = Number(trimmed);
    if (trimmed === "" || !Number.isFinite(value)) return { error: "enter a number" };
    if (field.integer && !Number.isInteger(value)) return { error: "enter a whole number" };
    if (field.minimum !== undefined && value < field.minimum)
      return { error: `must be at least ${field.minimum}` };
    if (field.maximum !== undefined && value > field.maximum)
      return { error: `must be at most ${field.maximum}` };
    return { value };
  }
  if (field.minLength !== undefined && text.length < field.minLength) {
    return { error: `must be at least ${field.minLength} characters` };
  }
  if (field.maxLength !== undefined && text.length > field.maxLength) {
    return { error: `must be at most ${field.maxLength} characters` };
  }
  const formatError = field.format ? checkFormat(field.format, text) : undefined;
  return formatError ? { error: formatError } : { value: text };
}

function checkFormat(format: "email" | "uri" | "date" | "date-time", text: string): string | undefined {
  switch (format) {
    case "email":
      return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)
        ? undefined
        : "enter an email address (name@example.com)";
    case "uri":
      return isUri(text) ? undefined : "enter a URI with a scheme (https://example.com)";
    case "date":
      return isDate(text) ? undefined : "enter a date as YYYY-MM-DD";
    case "date-time": {
      const match = /^(\d{4}-\d{2}-\d{2})T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i.exec(text);
      return match && isDate(match[1]!) && !Number.isNaN(Date.parse(text))
        ? undefined
        : "enter a date and time as YYYY-MM-DDTHH:MM:SSZ (or with an offset like +02:00)";
    }
  }
}

function isUri(text: string): boolean {
  if (!/^[a-z][a-z0-9+.-]*:\S+$/i.test(text)) return false;
  try {
    new URL(text);
    return true;
  } catch {
    return false;
  }
}

function isDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

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
