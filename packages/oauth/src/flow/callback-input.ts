/**
 * Turns what comes back from the browser — the loopback request's query, a
 * pasted redirect URL, a pasted query string or a bare code — into an
 * authorization code, checking `state` whenever one is present. A code
 * arriving with a different state is refused (CSRF / mix-up protection).
 */
import { OAuthError } from "../errors.js";

export interface CallbackResult {
  code: string;
}

function paramsOf(input: string): URLSearchParams | undefined {
  const text = input.trim();
  try {
    const url = new URL(text);
    return url.searchParams;
  } catch {
    // not a URL: maybe a query string or a bare code
  }
  if (text.includes("=")) return new URLSearchParams(text.startsWith("?") ? text.slice(1) : text);
  return undefined;
}

/** What RFC 9207 lets a client check about who sent the authorization response. */
export interface IssuerExpectation {
  /** The authorization server's recorded `issuer`. */
  issuer: string;
  /** True when its metadata sets `authorization_response_iss_parameter_supported`. */
  required: boolean;
}

/**
 * Validates callback parameters against the state sent with the
 * authorization request and, with `issuer`, the RFC 9207 `iss` parameter:
 * when present it must equal the recorded issuer exactly (no normalisation);
 * when the server advertised it, it must be present.
 */
export function readCallbackParams(
  params: URLSearchParams,
  expectedState: string | undefined,
  issuer?: IssuerExpectation,
): CallbackResult {
  const error = params.get("error");
  if (error) {
    const description = params.get("error_description")?.slice(0, 200);
    throw new OAuthError(
      "authorization_failed",
      `The authorization server refused the login: ${error}${description ? ` (${description})` : ""}`,
    );
  }
  const code = params.get("code");
  if (!code) {
    throw new OAuthError(
      "callback_failed",
      "The callback has no `code` parameter: paste the full address of the page the browser was sent back to",
    );
  }
  const state = params.get("state");
  if (expectedState !== undefined && state !== expectedState) {
    throw new OAuthError(
      "state_mismatch",
      state === null
        ? "The callback has no `state` parameter: paste the full address, or only the code"
        : "The callback's `state` does not match this login (it belongs to another or an older attempt): start the login again",
    );
  }
  const iss = params.get("iss");
  if (issuer && iss !== null && iss !== issuer.issuer) {
    throw new OAuthError(
      "issuer_mismatch",
      `The callback came from issuer "${iss.slice(0, 100)}", not from "${issuer.issuer}" where this login started (RFC 9207): start the login again`,
    );
  }
  if (issuer?.required && iss === null) {
    throw new OAuthError(
      "issuer_mismatch",
      "The callback has no `iss` parameter although the authorization server promises one (RFC 9207): paste the full address",
    );
  }
  return { code };
}

/** Accepts a pasted redirect URL, query string, or bare authorization code. */
export function readPastedCallback(
  input: string,
  expectedState: string | undefined,
  issuer?: IssuerExpectation,
): CallbackResult {
  const text = input.trim();
  if (!text)
    throw new OAuthError("invalid_input", "Nothing was pasted: paste the callback address or the code");
  const params = paramsOf(text);
  if (params) return readCallbackParams(params, expectedState, issuer);
  if (/\s/.test(text)) {
    throw new OAuthError("invalid_input", "The pasted text is neither a callback address nor a code");
  }
  // A bare code carries no state or iss; PKCE still binds it to this login's verifier.
  return { code: text };
}
