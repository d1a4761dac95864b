/**
 * The words of a tool's input schema that search indexes: parameter names,
 * and what describes a parameter's values — its description and its allowed
 * values (`enum`, `const`, also of array items). Allowed values are often the
 * only place a tool names what it does (`networkConditions: "Slow 3G" |
 * "Offline"`, `mode: "driving" | "walking"`).
 */
import type { JsonSchemaObject } from "@pi-mcp-adapter/core";

type Schema = Record<string, unknown>;

export interface ParameterText {
  names: string[];
  /** Descriptions and allowed values, as one text. */
  values: string;
}

const MAX_VALUES_PER_PARAMETER = 24;

export function parameterText(schema: JsonSchemaObject): ParameterText {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  const parts: string[] = [];
  for (const property of Object.values(properties)) {
    if (!isSchema(property)) continue;
    if (typeof property.description === "string") parts.push(property.description);
    parts.push(...allowedValues(property));
    if (isSchema(property.items)) parts.push(...allowedValues(property.items));
  }
  return { names, values: parts.join(" ") };
}

function allowedValues(schema: Schema): string[] {
  const values = Array.isArray(schema.enum) ? schema.enum : "const" in schema ? [schema.const] : [];
  return values
    .filter((value): value is string => typeof value === "string")
    .slice(0, MAX_VALUES_PER_PARAMETER);
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
