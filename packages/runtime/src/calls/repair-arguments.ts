/**
 * Arguments a model sent as JSON text where the tool's input schema asks
 * for an object or an array (`{"filter": "{\"state\":\"open\"}"}`): each
 * such top-level property is parsed once, and the call says so. The schema
 * decides: a property that may be a string stays a string, text that does
 * not parse (or parses to another kind) is left for the server to judge, and
 * nothing nested is touched, so a value is never repaired twice.
 */

type Schema = Record<string, unknown>;

export interface ArgumentRepair {
  /** The arguments to send: `args` itself when nothing was repaired. */
  args: Record<string, unknown>;
  /** The properties parsed from JSON text, each with the kind it became. */
  repaired: { name: string; kind: "object" | "array" }[];
}

/** `args` with each top-level JSON-text property that the schema wants as an object or array parsed once. */
export function repairJsonStringArguments(schema: Schema, args: Record<string, unknown>): ArgumentRepair {
  const properties = isObject(schema.properties) ? schema.properties : {};
  let out: Record<string, unknown> | undefined;
  const repaired: ArgumentRepair["repaired"] = [];
  for (const [name, value] of Object.entries(args)) {
    const property = properties[name];
    if (typeof value !== "string" || !isObject(property)) continue;
    const kind = wantedKind(property.type);
    if (!kind) continue;
    const parsed = parseAs(value, kind);
    if (parsed === undefined) continue;
    out ??= { ...args };
    out[name] = parsed;
    repaired.push({ name, kind });
  }
  return { args: out ?? args, repaired };
}

/** The short note a repaired call's result starts with. */
export function repairNote(repaired: ArgumentRepair["repaired"]): string {
  const list = repaired.map((r) => `"${r.name}" (${r.kind})`).join(", ");
  return `Note: ${list} arrived as JSON text and ${repaired.length === 1 ? "was" : "were"} parsed once; send ${repaired.length === 1 ? "it" : "them"} as JSON values, not strings.`;
}

/** `object` or `array` when the schema's type asks for exactly one of them and never a string. */
function wantedKind(type: unknown): "object" | "array" | undefined {
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type : [];
  if (types.includes("string")) return undefined;
  const wanted = types.filter((t): t is "object" | "array" => t === "object" || t === "array");
  return wanted.length === 1 ? wanted[0] : undefined;
}

function parseAs(text: string, kind: "object" | "array"): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith(kind === "object" ? "{" : "[")) return undefined;
  try {
    const parsed: unknown = JSON.parse(trimmed);
    return (kind === "object" ? isObject(parsed) : Array.isArray(parsed)) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
