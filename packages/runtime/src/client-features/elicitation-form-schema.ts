/**
 * Turns a form-mode elicitation's `requestedSchema` into form fields. The
 * spec restricts it to a flat object of primitive fields (strings with an
 * optional format, numbers, integers, booleans, single and multi-select
 * enums); anything else is a `FormSchemaError` before any dialog is shown.
 * Text the server wrote (titles, descriptions, choice labels) is stripped of
 * terminal control and bidi characters here, so no dialog can be restyled or
 * reordered by it.
 */
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";

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
