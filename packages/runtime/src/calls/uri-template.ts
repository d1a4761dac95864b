/**
 * Expands a resource template's `uriTemplate` with the caller's arguments.
 *
 * Supported: RFC 6570 simple string expansion, `{var}` and `{var1,var2}`
 * (values joined by `,`), each value percent-encoded except unreserved
 * characters (`A-Z a-z 0-9 - . _ ~`). Operators (`{+var}`, `{#var}`,
 * `{/var}`, `{?var}`, …) and modifiers (`{var:3}`, `{var*}`) are refused
 * with a message naming the expression, as is a variable without a value
 * (a read with a hole in its URI would only fail later, less clearly).
 */
import { RuntimeError } from "../errors.js";

const EXPRESSION = /\{([^}]*)\}/g;
const VARNAME = /^[A-Za-z0-9_]+$/;

export function expandUriTemplate(template: string, args: Record<string, unknown>): string {
  return template.replace(EXPRESSION, (_match, body: string) => {
    const names = body.split(",");
    const values = names.map((name) => {
      if (!VARNAME.test(name)) {
        throw new RuntimeError(
          "invalid_args",
          `URI template ${template}: {${body}} is not a simple {variable} expansion (only RFC 6570 simple expansion is supported)`,
        );
      }
      return encodeValue(template, name, args[name]);
    });
    return values.join(",");
  });
}

/** The variable names of a template, in order (for describing it). */
export function uriTemplateVariables(template: string): string[] {
  return [...template.matchAll(EXPRESSION)].flatMap((m) => (m[1] ?? "").split(","));
}

function encodeValue(template: string, name: string, value: unknown): string {
  if (value === undefined || value === null || value === "") {
    throw new RuntimeError("invalid_args", `URI template ${template} needs args.${name}`);
  }
  if (typeof value !== "string" && typeof value !== "number" && typeof value !== "boolean") {
    throw new RuntimeError(
      "invalid_args",
      `URI template ${template}: args.${name} must be a string, number or boolean`,
    );
  }
  // encodeURIComponent leaves !'()* alone; RFC 6570 reserves them.
  return encodeURIComponent(String(value)).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
