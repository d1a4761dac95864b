/**
 * OAuth options carried over from pi-mcp-adapter 2.x, validated when the
 * config loads so a mistake is reported at its field instead of failing a
 * login later: a machine grant (`grantType: "client_credentials"`), a Client
 * ID Metadata Document URL (CIMD), an authorization-server metadata document
 * read instead of discovery, extra authorization URL parameters, and the
 * `client_uri` / `logo_uri` links sent with dynamic registration.
 */
import { z } from "zod";

/** Set by the login flow; a configured value could only break it. */
const FLOW_OWNED_PARAMS = [
  "client_id",
  "redirect_uri",
  "response_type",
  "scope",
  "state",
  "code_challenge",
  "code_challenge_method",
  "resource",
];

const isLoopback = (url: URL) => ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);

/** An absolute URL with one of `protocols` (plain http only on this machine's loopback when `https` is asked for). */
const absoluteUrl = (what: string, secure: boolean) =>
  z.string().refine(
    (value) => {
      if (!URL.canParse(value)) return false;
      const url = new URL(value);
      if (url.protocol === "https:") return true;
      return url.protocol === "http:" && (!secure || isLoopback(url));
    },
    { message: `${what} must be an absolute ${secure ? "https" : "http(s)"} URL` },
  );

export const OAuthClientOptionsShape = {
  /** `client_credentials`: the server is reached with `clientId` + `clientSecret`, no browser. */
  grantType: z.enum(["authorization_code", "client_credentials"]).optional(),
  /** An HTTPS Client ID Metadata Document URL, used as the client ID where the server supports CIMD. */
  clientMetadataUrl: z
    .string()
    .refine(
      (value) =>
        URL.canParse(value) && /^https:$/.test(new URL(value).protocol) && new URL(value).pathname !== "/",
      {
        message: "must be an https URL with a path (the Client ID Metadata Document)",
      },
    )
    .optional(),
  /** The authorization server's metadata document, read instead of discovery. */
  authServerMetadataUrl: absoluteUrl("the metadata document URL", true).optional(),
  /** Extra authorization URL parameters (`prompt`, `audience`, …). */
  authorizationParams: z
    .record(z.string(), z.string())
    .superRefine((params, ctx) => {
      for (const name of Object.keys(params)) {
        if (FLOW_OWNED_PARAMS.includes(name)) {
          ctx.addIssue({
            code: "custom",
            path: [name],
            message: `"${name}" is set by the login flow and cannot be configured`,
          });
        }
      }
    })
    .optional(),
  clientUri: absoluteUrl("clientUri", false).optional(),
  /** Consent screens fetch it from their own servers: an absolute http(s) URL. */
  logoUri: absoluteUrl("logoUri", false).optional(),
};
