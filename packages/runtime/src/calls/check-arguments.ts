/**
 * `strictDirectToolArguments`: arguments checked against a tool's input
 * schema before the server sees them, with a message naming the field. A
 * deliberate subset of JSON Schema (required, type, enum, additional
 * properties, one level of nested objects and array items): it catches what
 * models get wrong, and anything it does not understand it lets through for
 * the server to judge.
 */
import { RuntimeError } from "../errors.js";

type Schema = Record<string, unknown>;

/** Throws `invalid_args` naming the first field that does not fit `schema`. */
export function checkArguments(tool: string, schema: Schema, args: Record<string, unknown>): void {
  const problem = objectProblem(schema, args, "");
  if (problem) throw new RuntimeError("invalid_args", `Tool ${tool}: ${problem}`);
}

function objectProblem(schema: Schema, value: Record<string, unknown>, path: string): string | undefined {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  for (const key of required) {
    if (typeof key === "string" && value[key] === undefined) return `argument "${path}${key}" is required`;
  }
  for (const [key, field] of Object.entries(value)) {
    const sub = properties[key];
    if (sub === undefined) {
      if (schema.additionalProperties === false) {
        const known = Object.keys(properties);
        return `unknown argument "${path}${key}"${known.length ? ` (expected: ${known.join(", ")})` : ""}`;
      }
      continue;
    }
    if (!isObject(sub) || field === undefined) continue;
    const problem = valueProblem(sub, field, `${path}${key}`);
    if (problem) return problem;
  }
  return undefined;
}

function valueProblem(schema: Schema, value: unknown, path: string): string | undefined {
  const types = typesOf(schema.type);
  if (types && !types.some((t) => fits(t, value))) {
    return `argument "${path}" must be ${types.join(" or ")} (got ${describe(value)})`;
  }
  if (Array.isArray(schema.enum) && !schema.enum.some((e) => e === value)) {
    return `argument "${path}" must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(", ")}`;
  }
  if (isObject(value) && (schema.properties || schema.required))
    return objectProblem(schema, value, `${path}.`);
  if (Array.isArray(value) && isObject(schema.items)) {
    for (const [i, item] of value.entries()) {
      const problem = valueProblem(schema.items, item, `${path}[${i}]`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function typesOf(type: unknown): string[] | undefined {
  if (typeof type === "string") return [type];
  if (Array.isArray(type) && type.every((t) => typeof t === "string")) return type as string[];
  return undefined;
}

function fits(type: string, value: unknown): boolean {
  switch (type) {
    case "string":
      return typeof value === "string";
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "boolean":
      return typeof value === "boolean";
    case "array":
      return Array.isArray(value);
    case "object":
      return isObject(value);
    case "null":
      return value === null;
    default:
      return true;
  }
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${JSON.stringify(value).slice(0, 40)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
