/**
 * Renders a JSON Schema as a compact TypeScript-like shape for a model to
 * read, e.g. `{ query: string; limit?: number /* default 10 *\/; }`.
 * Covers objects (required vs optional), arrays, enums and consts as unions,
 * `anyOf`/`oneOf`, nullable types, `$ref` to `#/$defs/...` or
 * `#/definitions/...` within the same schema, and defaults. Output is bounded:
 * nesting past `maxDepth` becomes `object`, and text past `maxLength` is cut
 * with `…`.
 */

export interface SchemaShapeOptions {
  /** Longest output in characters; default 600. */
  maxLength?: number;
  /** Deepest object nesting rendered in full; default 3. */
  maxDepth?: number;
}

type Schema = Record<string, unknown>;

export function renderSchemaShape(schema: unknown, options: SchemaShapeOptions = {}): string {
  const maxLength = options.maxLength ?? 600;
  const root = isSchema(schema) ? schema : {};
  const text = render(root, { root, depth: 0, maxDepth: options.maxDepth ?? 3, refs: new Set() });
  return text.length > maxLength ? `${text.slice(0, maxLength - 1)}…` : text;
}

interface Context {
  root: Schema;
  depth: number;
  maxDepth: number;
  /** `$ref`s being expanded, to stop at cycles. */
  refs: Set<string>;
}

function render(schema: Schema, ctx: Context): string {
  if (typeof schema.$ref === "string") return renderRef(schema.$ref, ctx);
  if ("const" in schema) return literal(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(" | ") || "never";
  const union = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(union)) return unionOf(union.filter(isSchema).map((s) => render(s, ctx)));
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1 && isSchema(schema.allOf[0])) {
    return render(schema.allOf[0], ctx);
  }
  const type = schema.type;
  if (Array.isArray(type)) return unionOf(type.map((t) => render({ ...schema, type: t }, ctx)));
  switch (type) {
    case "string":
      return "string";
    case "integer":
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "null":
      return "null";
    case "array": {
      const items = isSchema(schema.items) ? render(schema.items, ctx) : "unknown";
      return /[|&\s]/.test(items) && !items.startsWith("{") ? `(${items})[]` : `${items}[]`;
    }
    case "object":
      return renderObject(schema, ctx);
    default:
      return isSchema(schema.properties) ? renderObject(schema, ctx) : "unknown";
  }
}

function renderObject(schema: Schema, ctx: Context): string {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    return isSchema(schema.additionalProperties)
      ? `Record<string, ${render(schema.additionalProperties, ctx)}>`
      : "object";
  }
  if (ctx.depth >= ctx.maxDepth) return "object";
  const required = new Set(Array.isArray(schema.required) ? schema.required.map(String) : []);
  const inner: Context = { ...ctx, depth: ctx.depth + 1 };
  const members = names.map((name) => {
    const prop = properties[name];
    const propSchema = isSchema(prop) ? prop : {};
    const key = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? name : JSON.stringify(name);
    const optional = required.has(name) ? "" : "?";
    const note = propSchema.default !== undefined ? ` /* default ${literal(propSchema.default)} */` : "";
    return `${key}${optional}: ${render(propSchema, inner)}${note};`;
  });
  return `{ ${members.join(" ")} }`;
}

function renderRef(ref: string, ctx: Context): string {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  const name = match?.[2] ?? ref;
  if (!match || ctx.refs.has(ref)) return name.split("/").pop() ?? "unknown";
  const defs = ctx.root[match[1]!];
  const target = isSchema(defs) ? defs[match[2]!] : undefined;
  if (!isSchema(target)) return "unknown";
  const refs = new Set(ctx.refs).add(ref);
  return render(target, { ...ctx, refs });
}

function unionOf(parts: string[]): string {
  const unique = [...new Set(parts)];
  return unique.length ? unique.join(" | ") : "unknown";
}

function literal(value: unknown): string {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
