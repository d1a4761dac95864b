/**
 * The safety rules a URL from a server must pass before the user is even
 * shown it (URL-mode elicitation and `-32042` URL-required errors). A server
 * picks the URL, so anything that could disguise where it leads is refused
 * outright rather than shown with a warning: embedded credentials, characters
 * that render invisibly or reorder text, backslashes that browsers read as
 * slashes, and schemes other than https (http only on the loopback host).
 */

/** A URL that may be shown: the parsed URL, its host as the user should read it, and warnings to show with it. */
export interface SafeElicitationUrl {
  ok: true;
  url: string;
  host: string;
  warnings: string[];
}

/** A refused URL and why, in words for the user and the model. */
export interface RefusedElicitationUrl {
  ok: false;
  reason: string;
}

/** Hosts where plain http is allowed (local development servers). */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

// C0 controls, DEL and C1 controls.
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// Any whitespace, the Unicode spaces included (U+00A0, U+2000–U+200A, U+3000, …), and zero-width characters.
const WHITESPACE = /[\s\u200b-\u200d\u2060\ufeff]/;
// Bidirectional marks, embeddings, overrides and isolates: they reorder what the user reads.
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** Checks a server-supplied URL against the rules above; the first broken rule is the reason. */
export function checkElicitationUrl(raw: string): SafeElicitationUrl | RefusedElicitationUrl {
  if (typeof raw !== "string" || raw.length === 0) return refuse("the URL is empty");
  if (CONTROL.test(raw)) return refuse("the URL contains control characters");
  if (BIDI.test(raw)) return refuse("the URL contains bidirectional text characters");
  if (WHITESPACE.test(raw)) return refuse("the URL contains whitespace");
  if (raw.includes("\\")) return refuse("the URL contains a backslash");
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse("the URL cannot be parsed");
  }
  if (url.username !== "" || url.password !== "" || /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*@/i.test(raw)) {
    return refuse("the URL embeds credentials (user:password@)");
  }
  const warnings: string[] = [];
  if (url.protocol === "http:") {
    if (!LOOPBACK_HOSTS.has(url.hostname)) {
      return refuse("plain http is allowed only for localhost, 127.0.0.1 and [::1]; the URL must use https");
    }
    warnings.push("plain http (not encrypted): only for a local development server");
  } else if (url.protocol !== "https:") {
    return refuse(`the scheme ${url.protocol} is not allowed; the URL must use https`);
  }
  if (url.hostname === "") return refuse("the URL has no host");
  // WHATWG URL parsing turns Unicode hostnames into punycode, so one check covers both spellings.
  if (url.hostname.split(".").some((label) => label.startsWith("xn--"))) {
    warnings.push(
      `the host ${url.hostname} is an internationalised (punycode) name: it may imitate another site`,
    );
  }
  return { ok: true, url: url.href, host: url.host, warnings };
}

function refuse(reason: string): RefusedElicitationUrl {
  return { ok: false, reason };
}
