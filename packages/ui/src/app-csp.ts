/**
 * The Content-Security-Policy an app's document is served with, from its
 * resource's `_meta.ui.csp` (the domains it declares for network, assets,
 * frames and `<base>`). Nothing else is reachable: not even this loopback
 * server ('self' is left out), so an app cannot talk to the host page's
 * endpoints behind the bridge's back.
 */

/** `_meta.ui.csp` of a UI resource (MCP Apps). */
export interface AppCspDomains {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

export function appCsp(domains: AppCspDomains | undefined): string {
  const list = (values: string[] | undefined) => (values ?? []).filter(isSafeSource);
  const resources = list(domains?.resourceDomains);
  const connect = list(domains?.connectDomains);
  const frames = list(domains?.frameDomains);
  const base = list(domains?.baseUriDomains);
  const join = (...parts: string[]) => parts.join(" ");
  return [
    "default-src 'none'",
    `script-src ${join("'unsafe-inline'", "blob:", ...resources)}`,
    `style-src ${join("'unsafe-inline'", ...resources)}`,
    `img-src ${join("data:", "blob:", ...resources)}`,
    `font-src ${join("data:", ...resources)}`,
    `media-src ${join("data:", "blob:", ...resources)}`,
    `connect-src ${connect.length ? join(...connect) : "'none'"}`,
    `frame-src ${frames.length ? join(...frames) : "'none'"}`,
    `base-uri ${base.length ? join(...base) : "'none'"}`,
    "form-action 'none'",
  ].join("; ");
}

/** The CSP domains of a resource's `_meta` (`_meta.ui.csp`), if it declares any. */
export function cspDomainsOf(meta: unknown): AppCspDomains | undefined {
  const ui = (meta as { ui?: { csp?: unknown } } | undefined)?.ui;
  const csp = ui?.csp;
  if (typeof csp !== "object" || csp === null) return undefined;
  const pick = (key: keyof AppCspDomains) => {
    const value = (csp as Record<string, unknown>)[key];
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : undefined;
  };
  return {
    connectDomains: pick("connectDomains"),
    resourceDomains: pick("resourceDomains"),
    frameDomains: pick("frameDomains"),
    baseUriDomains: pick("baseUriDomains"),
  };
}

/** A host source (scheme://host[:port], wildcards allowed); keywords and anything that could end the directive are dropped. */
function isSafeSource(value: string): boolean {
  return /^(https?|wss?):\/\/[A-Za-z0-9*.-]+(:\d+)?(\/[^\s;,']*)?$/.test(value);
}
