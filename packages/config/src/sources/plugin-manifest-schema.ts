/** An Agent Plugins 1.x `plugin.json` (`agent-plugins.ts` reads it), as a zod schema with its type. */
import { z } from "zod";

export const PluginManifestSchema = z.object({
  $schema: z
    .string()
    .regex(
      /^https:\/\/agent-plugins\.org\/schemas\/1\.[0-9.]+\/plugin\.schema\.json$/,
      "expected an Agent Plugins 1.x plugin schema URL",
    ),
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, "expected lowercase letters, digits and single hyphens"),
  version: z.string().optional(),
  description: z.string().optional(),
});
export type PluginManifest = z.infer<typeof PluginManifestSchema>;
