/**
 * The one meaning of a tool glob, shared by `includeTools`, `excludeTools`,
 * `approveTools` and `searchKeywords`:
 *
 * - Syntax is picomatch's: `*` any run of characters, `?` one character,
 *   `[abc]` a class, `{a,b}` alternatives, a leading `!` negates.
 * - Tool names are not paths: `/` and `.` are ordinary characters, so `*`
 *   and `?` match them too (`fs_*` matches `fs_read/file.txt`).
 * - Case-insensitive: `Delete_*` matches `delete_file`. For approval and
 *   exclusion this errs on the side of asking and hiding more.
 * - A glob matches a tool when it matches the tool's own name on its server
 *   or its prefixed name (the one the model sees), whichever level (global or
 *   per server) the glob was written at.
 * - A glob equal to a name matches it even when the name holds glob
 *   characters; an empty glob matches nothing.
 */
import picomatch from "picomatch";

/** The two names a tool is known by. */
export interface ToolNames {
  /** The tool's name on its server. */
  name: string;
  /** The name the model sees (`prefixedToolName`). */
  prefixedName: string;
}

// picomatch treats `/` as a path separator that `*` and `?` never cross;
// swapping it for a private-use character in both glob and name makes it ordinary.
const SLASH_STAND_IN = "\uE000";

// `windows: false` keeps `\` an escape on every platform (the types do not list the option).
const PICOMATCH_OPTIONS = { dot: true, nocase: true, windows: false };

const compiled = new Map<string, (value: string) => boolean>();
const MAX_COMPILED = 1000;

/** A predicate for one glob against one name (see the module comment for the meaning). */
export function toolGlobMatcher(glob: string): (value: string) => boolean {
  let match = compiled.get(glob);
  if (!match) {
    match = compile(glob);
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(glob, match);
  }
  return match;
}

/** True when `glob` matches the tool's own or prefixed name. */
export function matchesToolGlob(glob: string, tool: ToolNames): boolean {
  const match = toolGlobMatcher(glob);
  return match(tool.name) || match(tool.prefixedName);
}

/** True when any of `globs` matches the tool. */
export function matchesAnyToolGlob(globs: readonly string[], tool: ToolNames): boolean {
  return globs.some((glob) => matchesToolGlob(glob, tool));
}

function compile(glob: string): (value: string) => boolean {
  if (glob === "") return () => false;
  const literal = glob.toLowerCase();
  let pattern: (value: string) => boolean;
  try {
    pattern = picomatch(glob.replaceAll("/", SLASH_STAND_IN), PICOMATCH_OPTIONS);
  } catch {
    // A glob picomatch cannot parse still matches the name it spells.
    pattern = () => false;
  }
  return (value) => value.toLowerCase() === literal || pattern(value.replaceAll("/", SLASH_STAND_IN));
}
