/**
 * `${VAR}` (and VS Code/Windsurf style `${env:VAR}`) expansion in env,
 * headers, args and url, done when connecting. `$${` escapes a literal `${`.
 * A variable that is not set is an error naming it, so a server never starts
 * with a silently empty token.
 */
const PATTERN = /\$(\$)?\{(?:env:)?([A-Za-z_][A-Za-z0-9_]*)\}/g;

export function interpolate(
  value: string,
  env: Record<string, string | undefined>,
): { value: string } | { missing: string } {
  let missing: string | undefined;
  const result = value.replace(PATTERN, (match, escaped: string | undefined, name: string) => {
    if (escaped) return match.slice(1);
    const found = Object.hasOwn(env, name) ? env[name] : undefined;
    if (found === undefined) {
      missing ??= name;
      return "";
    }
    return found;
  });
  return missing === undefined ? { value: result } : { missing };
}
