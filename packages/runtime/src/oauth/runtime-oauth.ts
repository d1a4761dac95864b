/**
 * The OAuth wiring of one runtime, built from its resolved config. A bad
 * OAuth setting (e.g. an unknown `oauthCredentialStore`) becomes a config
 * problem naming the file and key, and the runtime runs without OAuth rather
 * than not at all.
 */
import type { ConfigProblem, ResolvedConfig } from "@pi-mcp-adapter/config";
import { describeError } from "@pi-mcp-adapter/core";
import { createOAuthWiring, type OAuthWiring, type OAuthWiringOptions } from "./oauth-wiring.js";

/** What the host does with OAuth messages: warnings, logins `autoAuth` started, the browser, logins finished by themselves. */
export type RuntimeOAuthHooks = Pick<
  OAuthWiringOptions,
  "warn" | "onAutoAuth" | "env" | "openBrowser" | "onBackgroundLogin"
>;

/**
 * `servers` is read on each use, so servers added by a config reload get
 * their OAuth too; the store and its settings stay those of the session start.
 */
export async function createRuntimeOAuth(
  config: ResolvedConfig,
  hooks: RuntimeOAuthHooks = {},
  servers: () => ResolvedConfig["servers"] = () => config.servers,
): Promise<{ wiring?: OAuthWiring; problems: ConfigProblem[] }> {
  const { settings } = config;
  try {
    const wiring = await createOAuthWiring({
      servers,
      settings: {
        oauthCredentialStore: settings.oauthCredentialStore,
        oauthClientName: settings.oauthClientName,
        oauthDir: settings.oauthDir,
        autoAuth: settings.autoAuth,
      },
      ...hooks,
    });
    return { wiring, problems: [] };
  } catch (error) {
    const source = config.settingSources.oauthCredentialStore ?? config.settingSources.oauthDir;
    return {
      problems: [
        {
          severity: "error",
          file: source?.file ?? "settings",
          field: source?.key,
          message: `OAuth is off for this session: ${describeError(error)}`,
        },
      ],
    };
  }
}
