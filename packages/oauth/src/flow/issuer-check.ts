/**
 * RFC 8414 §3.3 issuer echo check: the metadata's `issuer` must be the URL
 * it was discovered for. A mismatch points at a mix-up attack or a broken
 * server, so it stops the flow unless the server opted out.
 */
import { OAuthError } from "../errors.js";

function trimSlash(value: string): string {
  return value.endsWith("/") ? value.slice(0, -1) : value;
}

export function issuersMatch(a: string, b: string): boolean {
  try {
    return trimSlash(new URL(a).href) === trimSlash(new URL(b).href);
  } catch {
    return trimSlash(a) === trimSlash(b);
  }
}

export interface IssuerCheckOptions {
  server: string;
  authorizationServerUrl: string;
  metadataIssuer: string | undefined;
  skip: boolean;
  warn: (message: string) => void;
}

/** Throws on a mismatch; with `skip`, warns every time instead. */
export function checkIssuerEcho(options: IssuerCheckOptions): void {
  const { metadataIssuer, authorizationServerUrl, server } = options;
  if (metadataIssuer === undefined || issuersMatch(metadataIssuer, authorizationServerUrl)) return;
  const detail = `metadata issuer "${metadataIssuer}" does not match the authorization server "${authorizationServerUrl}"`;
  if (options.skip) {
    options.warn(
      `OAuth for "${server}": ${detail}; continuing only because oauth.skipIssuerMetadataValidation is set for this server (weakens mix-up protection)`,
    );
    return;
  }
  throw new OAuthError(
    "issuer_mismatch",
    `OAuth for "${server}" stopped: ${detail} (RFC 8414 issuer check). Fix the server's metadata; ` +
      "for a known-misconfigured internal server only, set oauth.skipIssuerMetadataValidation: true",
  );
}
