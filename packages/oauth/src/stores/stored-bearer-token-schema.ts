/**
 * A stored bearer token's record as kept in the credential store (loaded by
 * stored-bearer-token.ts when it first reads one: this module loads zod).
 */
import { z } from "zod";

export const StoredBearerTokenSchema = z.object({
  version: z.literal(1),
  server: z.string(),
  url: z.string(),
  token: z.string().min(1),
  storedAt: z.number(),
});
export type StoredBearerToken = z.infer<typeof StoredBearerTokenSchema>;
