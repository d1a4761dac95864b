/**
 * The environment of a shared server process: a fixed list of variables the
 * user's sessions have in common (who and where the user is, locale, temp
 * dir, proxies and certificates), plus the variables the server's definition
 * configures. Nothing else a session inherited from its terminal
 * (TERM_SESSION_ID, TMUX_PANE, WINDOWID, OLDPWD, SHLVL, PWD, TERM, …) reaches
 * the server, so sessions in two terminals share one process; whatever does
 * reach it is part of the share key, so sessions with a different PATH or
 * proxy never share one. A variable to add goes here and in the README's
 * "Environment" section.
 */

/**
 * The inherited variables a shared server sees: the MCP SDK's default
 * environment for stdio servers (`getDefaultEnvironment`, without TERM: a
 * shared server has no terminal, and TERM differs between tmux and the
 * terminal around it) and the platform equivalents, locale and time zone, the
 * temp dir, XDG base dirs, proxies and CA certificates.
 */
export const SHARED_SERVER_ENV_NAMES: readonly string[] = [
  "HOME",
  "LOGNAME",
  "PATH",
  "SHELL",
  "USER",
  "LANG",
  "LANGUAGE",
  "TZ",
  "TMPDIR",
  "TMP",
  "TEMP",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_CACHE_HOME",
  "XDG_STATE_HOME",
  "XDG_RUNTIME_DIR",
  "HTTP_PROXY",
  "HTTPS_PROXY",
  "ALL_PROXY",
  "NO_PROXY",
  "http_proxy",
  "https_proxy",
  "all_proxy",
  "no_proxy",
  "NODE_EXTRA_CA_CERTS",
  "SSL_CERT_FILE",
  "SSL_CERT_DIR",
  // Windows, as in the SDK's list (sharing is not supported there yet).
  "APPDATA",
  "HOMEDRIVE",
  "HOMEPATH",
  "LOCALAPPDATA",
  "PROCESSOR_ARCHITECTURE",
  "SYSTEMDRIVE",
  "SYSTEMROOT",
  "USERNAME",
  "USERPROFILE",
  "PROGRAMFILES",
];

/** Locale categories (`LC_ALL`, `LC_CTYPE`, …) pass too: a name with this prefix. */
const LOCALE_PREFIX = "LC_";

const NAMES = new Set(SHARED_SERVER_ENV_NAMES);

/**
 * The environment a shared server starts with: of `env` (the session's
 * merged environment, configured values included), the listed inherited
 * variables and every name in `configured` (the definition's own `env`,
 * after `${VAR}` expansion). An inherited value that starts with `()` is an
 * exported shell function and is left out, as the SDK does.
 */
export function sharedServerEnv(
  env: Readonly<Record<string, string | undefined>>,
  configured: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (Object.hasOwn(configured, name)) result[name] = value;
    else if ((NAMES.has(name) || name.startsWith(LOCALE_PREFIX)) && !value.startsWith("()")) {
      result[name] = value;
    }
  }
  return result;
}
