/**
 * Validates a tool's `structuredContent` against its advertised
 * `outputSchema`. Schemas stamped draft-04/06/07 use the draft-07 validator;
 * 2020-12 and unstamped schemas use the 2020-12 validator (the SDK default).
 */
import type { JsonSchemaObject, ToolCallResult } from "@pi-mcp-adapter/core";
import { Ajv } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import { TransportError } from "../errors.js";

type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

const options = { strict: false, allErrors: true, validateSchema: false, validateFormats: false } as const;
let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function validatorFor(dialect: string): Ajv | Ajv2020 {
  if (/draft-0[4-7]/.test(dialect)) {
    draft07 ??= new Ajv(options);
    return draft07;
  }
  draft2020 ??= new Ajv2020(options);
  return draft2020;
}
const compiled = new WeakMap<object, Validate>();

function compile(schema: JsonSchemaObject): Validate {
  const cached = compiled.get(schema);
  if (cached) return cached;
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  const { $schema: _ignored, ...rest } = schema;
  const validate = validatorFor(dialect).compile(rest);
  compiled.set(schema, validate as Validate);
  return validate as Validate;
}

/** Undefined when valid; otherwise a short description of the first problems. */
export function checkStructuredContent(schema: JsonSchemaObject, value: unknown): string | undefined {
  let validate: Validate;
  try {
    validate = compile(schema);
  } catch (error) {
    return `outputSchema could not be compiled: ${(error as Error).message}`;
  }
  if (validate(value)) return undefined;
  return (validate.errors ?? [])
    .slice(0, 3)
    .map((e) => `${e.instancePath || "(root)"} ${e.message ?? "is invalid"}`)
    .join("; ");
}

/**
 * Throws `invalid_result` when a successful call of a tool that declares
 * `schema` returned no `structuredContent`, or content the schema rejects.
 */
export function enforceOutputSchema(
  server: string,
  what: string,
  schema: JsonSchemaObject,
  result: ToolCallResult,
): void {
  if (result.isError) return;
  if (result.structuredContent === undefined) {
    throw new TransportError(
      "invalid_result",
      server,
      `${server}: ${what} declares an outputSchema but returned no structuredContent`,
    );
  }
  const problem = checkStructuredContent(schema, result.structuredContent);
  if (problem) {
    throw new TransportError(
      "invalid_result",
      server,
      `${server}: ${what} returned structuredContent that does not match its outputSchema: ${problem}`,
    );
  }
}
