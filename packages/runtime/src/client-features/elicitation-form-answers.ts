/**
 * Checks what the user typed into a text or number field of an elicitation
 * form (range, whole numbers, length, email / uri / date / date-time), and
 * says the problem in words the dialog can show when the field is asked again.
 */
import type { FormField } from "./elicitation-form-schema.js";

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
