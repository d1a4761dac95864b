/**
 * `${VAR}` (and VS Code/Windsurf style `${env:VAR}`, OpenCode style
 * `{env:VAR}`, PowerShell style `$env:VAR`) expansion in env, headers, args
 * and url, done when connecting. `$${` escapes a literal `${`. A variable
 * that is not set is an error naming it, so a server never starts with a
 * silently empty token.
 */
const PATTERN =
  /\$(\$)?\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}|(?<!\$)\{env:([A-Za-z_][A-Za-z0-9_]*)\}|\$env:([A-Za-z_][A-Za-z0-9_]*)/g;

export function interpolate(
  value: string,
  env: Record<string, string | undefined>,
): { value: string } | { missing: string } {
  let missing: string | undefined;
  const result = value.replace(
    PATTERN,
    (match, escaped: string | undefined, braced?: string, openCode?: string, powerShell?: string) => {
      if (escaped) return match.slice(1);
      const name = (braced ?? openCode ?? powerShell) as string;
      const found = Object.hasOwn(env, name) ? env[name] : undefined;
      if (found === undefined) {
        missing ??= name;
        return "";
      }
      return found;
    },
  );
  return missing === undefined ? { value: result } : { missing };
}

/** True when `value` names a variable in any of the forms above (its URL check waits for expansion). */
export function hasVariable(value: string): boolean {
  return new RegExp(PATTERN.source).test(value);
}
