/**
 * A hand-written check of `mcp-cache.json`'s shape, accepting exactly what
 * `CacheFileSchema` accepts. Every Pi start with a warm cache reads the whole
 * file (about 1 MB for 1,000 tools); validating it with zod took 15–20 ms
 * of that start-up, this check well under 1 ms. The file is written through
 * `ServerListingSchema.parse`, so it holds no extra keys for zod to strip.
 * `cache-file-check.test.ts` keeps the two in step.
 */
import { isPins } from "./pins-check.js";

type Check = (value: unknown) => boolean;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const isString: Check = (value) => typeof value === "string";
const isNumber: Check = (value) => typeof value === "number" && Number.isFinite(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const arrayOf =
  (check: Check): Check =>
  (value) => {
    if (!Array.isArray(value)) return false;
    // Indexed, not `every`: a hole counts as `undefined`, as zod sees it.
    for (let i = 0; i < value.length; i++) if (!check(value[i])) return false;
    return true;
  };
/** An object whose listed fields pass their checks (other keys are allowed, as zod strips them). */
const shape =
  (fields: Record<string, Check>): Check =>
  (value) => {
    if (!isObject(value)) return false;
    for (const key in fields) if (!fields[key]!(value[key])) return false;
    return true;
  };

const optionalString = optional(isString);
const described = { title: optionalString, description: optionalString };

const isTool = shape({
  name: isString,
  ...described,
  inputSchema: isObject,
  outputSchema: optional(isObject),
  annotations: optional(isObject),
  execution: optional(isObject),
});

/** A listing's lists of tools, resources and resource templates (what a start-up may leave unparsed). */
const restFields = {
  tools: arrayOf(isTool),
  resources: optional(
    arrayOf(shape({ uri: isString, name: isString, ...described, mimeType: optionalString })),
  ),
  resourceTemplates: optional(
    arrayOf(shape({ uriTemplate: isString, name: isString, ...described, mimeType: optionalString })),
  ),
};

/** A skill entry as `checkSkillListing` kept it (a loaded skill is checked against the server again). */
const isSkillEntry = shape({
  uri: isString,
  frontmatter: shape({ name: isString, description: isString }),
  resources: (v) => v === "dynamic" || arrayOf(shape({ uri: isString, digest: isString, size: isNumber }))(v),
});

/** A skills listing entry refused by the checks (`RefusedSkillEntry`). */
const isRefusedSkill = shape({
  index: (v) => typeof v === "number" && Number.isInteger(v) && v >= 0,
  uri: optionalString,
  name: optionalString,
  reason: isString,
});

/** A listing's instructions, server info, prompts, skipped lists and skills (what a start-up reads of every server). */
const headFields = {
  skills: optional(arrayOf(isSkillEntry)),
  refusedSkills: optional(arrayOf(isRefusedSkill)),
  prompts: optional(
    arrayOf(
      shape({
        name: isString,
        ...described,
        arguments: optional(
          arrayOf(
            shape({
              name: isString,
              description: optionalString,
              required: optional((v) => typeof v === "boolean"),
            }),
          ),
        ),
      }),
    ),
  ),
  instructions: optionalString,
  serverInfo: optional(shape(described)),
  skipped: optional(
    arrayOf(
      shape({
        list: (v) =>
          v === "resources/list" ||
          v === "resources/templates/list" ||
          v === "prompts/list" ||
          v === "skills/list",
        reason: (v) => v === "unsupported" || v === "failed",
        error: isString,
      }),
    ),
  ),
};

/** The part of a listing before its `tools` in the cache file (`cache-file-text.ts`). */
export const isListingHead = shape(headFields);
/** The part of a listing from its `tools` on in the cache file. */
export const isListingRest = shape(restFields);
const isListing = shape({ ...restFields, ...headFields });

const isEntry = shape({
  key: isString,
  savedAt: (value) => typeof value === "number" && Number.isFinite(value),
  fingerprints: optional(shape({ listing: isString, tools: arrayOf(isString) })),
  listing: isListing,
});

/** True when `value` has the shape of a cache file of `version` (`CacheFile`; typed there, to keep imports one-way). */
export function isCacheFile(value: unknown, version: number): boolean {
  if (!isObject(value) || value.version !== version || !isObject(value.servers)) return false;
  if (!isPins(value.pins)) return false;
  return Object.values(value.servers).every(isEntry);
}
