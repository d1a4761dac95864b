/**
 * A server definition as it may be shown (`get`): every value that can hold
 * a secret is masked while its key stays — env and literalEnv values,
 * header values, the bearer token, the OAuth client secret, URL passwords
 * and query values, and arguments that follow or carry a secret-looking
 * flag (`--token x`, `--api-key=x`). A plain `${VAR}` reference is shown, as
 * it names a variable and holds no secret; a `!command` is masked, since its
 * text may itself carry one.
 */
import type { ConfiguredServer } from "../layers/configured-server.js";

export const MASK = "****";

const VARIABLE_REFERENCE = /^(\$\{(env:)?[A-Za-z_][A-Za-z0-9_]*\}|\$env:[A-Za-z_][A-Za-z0-9_]*)$/;
const SECRET_FLAG = /^--?[\w-]*(token|secret|password|passwd|api[-_]?key|apikey|auth|credential|key)[\w-]*$/i;

/** The definition without its bookkeeping (provenance, scope), secrets masked. */
export function maskServerDefinition(server: ConfiguredServer): Record<string, unknown> {
  const { source: _source, layers: _layers, scope: _scope, name: _name, ...definition } = server;
  const shown: Record<string, unknown> = structuredClone(definition);
  for (const key of ["env", "literalEnv", "headers"] as const) {
    const map = definition[key];
    if (map) shown[key] = Object.fromEntries(Object.keys(map).map((k) => [k, maskValue(map[k] ?? "")]));
  }
  if (definition.bearerToken !== undefined) shown.bearerToken = maskValue(definition.bearerToken);
  if (definition.oauth && definition.oauth.clientSecret !== undefined) {
    shown.oauth = { ...definition.oauth, clientSecret: maskValue(definition.oauth.clientSecret) };
  }
  const signer = definition.requestHeadersCommand;
  if (signer) {
    const env =
      signer.env &&
      Object.fromEntries(Object.keys(signer.env).map((k) => [k, maskValue(signer.env?.[k] ?? "")]));
    shown.requestHeadersCommand = {
      ...signer,
      ...(signer.args ? { args: maskArgs(signer.args) } : {}),
      ...(env ? { env } : {}),
    };
  }
  if (definition.url !== undefined) shown.url = maskUrl(definition.url);
  if (definition.args) shown.args = maskArgs(definition.args);
  if (definition.extra) shown.extra = Object.fromEntries(Object.keys(definition.extra).map((k) => [k, MASK]));
  return shown;
}

function maskValue(value: string): string {
  return VARIABLE_REFERENCE.test(value) ? value : MASK;
}

function maskUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return value.includes("?") ? `${value.slice(0, value.indexOf("?"))}?${MASK}` : value;
  }
  if (url.password) url.password = MASK;
  for (const key of [...url.searchParams.keys()]) url.searchParams.set(key, MASK);
  return url.toString();
}

function maskArgs(args: readonly string[]): string[] {
  return args.map((arg, i) => {
    const eq = arg.indexOf("=");
    if (eq > 0 && SECRET_FLAG.test(arg.slice(0, eq)))
      return `${arg.slice(0, eq + 1)}${maskValue(arg.slice(eq + 1))}`;
    const previous = args[i - 1];
    if (
      previous !== undefined &&
      !previous.includes("=") &&
      SECRET_FLAG.test(previous) &&
      !arg.startsWith("-")
    ) {
      return maskValue(arg);
    }
    return arg;
  });
}
