/**
 * The last `WWW-Authenticate` challenge (RFC 6750 §3, RFC 9728 §5.1) each
 * server answered a request with, noted on the way through the connection's
 * fetch. A login started later (`/mcp-auth`, `auth-start`, `autoAuth`) reads
 * it: a 403 `insufficient_scope` names the scope to step up to (SEP-2350),
 * and `resource_metadata` says where the server's protected-resource
 * metadata lives. The connection and the login are different objects, often
 * minutes apart; this is what carries the server's words from one to the other.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";

export interface OAuthChallenge {
  /** 401 (no usable token) or 403 (a token without enough scope). */
  status: 401 | 403;
  /** The scope the server asks for (space-separated), if it named one. */
  scope?: string;
  /** Where the server's protected-resource metadata lives, if it said. */
  resourceMetadataUrl?: string;
  /** The challenge's `error`, e.g. `invalid_token` or `insufficient_scope`. */
  error?: string;
}

const SCHEMES = new Set(["bearer", "dpop"]);

/**
 * Reads a Bearer or DPoP challenge; undefined for other schemes (a token
 * endpoint's `Basic`) and for DPoP nonce requests, which need no login.
 */
export function parseChallenge(status: 401 | 403, header: string | null): OAuthChallenge | undefined {
  const match = /^\s*([A-Za-z-]+)\s+(.*)$/s.exec(header ?? "");
  if (!match || !SCHEMES.has((match[1] as string).toLowerCase())) return undefined;
  const params = new Map<string, string>();
  for (const [, key, quoted, bare] of (match[2] as string).matchAll(
    /([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/g,
  )) {
    params.set((key as string).toLowerCase(), quoted?.replace(/\\(.)/g, "$1") ?? (bare as string));
  }
  const error = params.get("error");
  if (error === "use_dpop_nonce") return undefined;
  return {
    status,
    ...(params.get("scope") ? { scope: params.get("scope") } : {}),
    ...(params.get("resource_metadata") ? { resourceMetadataUrl: params.get("resource_metadata") } : {}),
    ...(error ? { error } : {}),
  };
}

/** The latest challenge per configured server name. */
export class OAuthChallenges {
  private readonly latest = new Map<string, OAuthChallenge>();

  /** `fetch` (default: the global one) that notes every 401/403 challenge `server` answers with. */
  observe(server: string, fetch: FetchLike = globalThis.fetch): FetchLike {
    return async (input, init) => {
      const response = await fetch(input, init);
      if (response.status === 401 || response.status === 403) {
        const challenge = parseChallenge(response.status, response.headers.get("www-authenticate"));
        if (challenge) this.latest.set(server, challenge);
      }
      return response;
    };
  }

  get(server: string): OAuthChallenge | undefined {
    return this.latest.get(server);
  }

  /** Forgets `server`'s challenge, e.g. once a login answered it. */
  clear(server: string): void {
    this.latest.delete(server);
  }
}
