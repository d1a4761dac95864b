/** The `requestHeadersCommand` entry of a server (2.x's key): which program computes its request headers. */
import { z } from "zod";

export const RequestHeadersCommandSchema = z.object({
  command: z.string().min(1, "must not be empty"),
  args: z.array(z.string()).optional(),
  env: z.record(z.string(), z.string()).optional(),
  timeoutMs: z.number().int().min(1).max(60_000).optional(),
});
export type RequestHeadersCommand = z.infer<typeof RequestHeadersCommandSchema>;
