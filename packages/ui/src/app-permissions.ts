/**
 * What an app's `_meta.ui.permissions` may have in this viewer. The app runs
 * in a sandboxed iframe of a page on this machine's loopback address, so a
 * device the browser lets it use would be asked for in the name of that
 * page, not of the app's server. Only clipboard writes are granted (the
 * iframe's `allow="clipboard-write"`: the app can put text on the clipboard,
 * never read it). Camera, microphone and geolocation are refused, as is any
 * permission this viewer does not know, with a note for the user.
 */

/** `_meta.ui.permissions` of a UI resource (MCP Apps). */
export interface AppPermissionRequest {
  camera?: object;
  microphone?: object;
  geolocation?: object;
  clipboardWrite?: object;
  [other: string]: unknown;
}

export interface AppPermissions {
  /** The iframe's `allow` attribute (empty: none). */
  allow: string;
  /** What the app is told it was granted (`hostCapabilities.sandbox.permissions`). */
  granted: { clipboardWrite?: Record<string, never> };
  /** The permissions it asked for and did not get, by their MCP Apps names. */
  refused: string[];
}

/** The Permission Policy feature of each permission this viewer grants. */
const GRANTABLE: Record<string, string> = { clipboardWrite: "clipboard-write" };

export function appPermissions(meta: unknown): AppPermissions {
  const requested = (meta as { ui?: { permissions?: unknown } } | undefined)?.ui?.permissions;
  const none: AppPermissions = { allow: "", granted: {}, refused: [] };
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) return none;
  const asked = Object.keys(requested).filter((name) => (requested as Record<string, unknown>)[name] != null);
  const features = asked.map((name) => GRANTABLE[name]).filter((f): f is string => f !== undefined);
  return {
    allow: features.join("; "),
    granted: asked.includes("clipboardWrite") ? { clipboardWrite: {} } : {},
    // A server's key is shown to the user: anything but a plain name is not repeated.
    refused: asked
      .filter((name) => GRANTABLE[name] === undefined)
      .map((name) => (/^[\w-]{1,40}$/.test(name) ? name : "an unnamed permission")),
  };
}

/** The note the user reads about refused permissions, naming the app; undefined when nothing was refused. */
export function refusedPermissionsNote(app: string, refused: readonly string[]): string | undefined {
  if (!refused.length) return undefined;
  return `${app} asked for ${refused.join(", ")}: not granted (apps here may only write to the clipboard; use the server's own client for device access)`;
}
