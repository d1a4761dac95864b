/**
 * Writes an isolated Pi agent dir whose only provider is a scripted model.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export const SCRIPTED_PROVIDER = "fake";
export const SCRIPTED_MODEL_ID = "fake-model";

/** Creates `<agentDir>/models.json` pointing the `fake` provider at `baseUrl`. */
export async function writePiAgentDir(agentDir: string, baseUrl: string): Promise<void> {
  await mkdir(agentDir, { recursive: true });
  const models = {
    providers: {
      [SCRIPTED_PROVIDER]: {
        baseUrl,
        api: "openai-completions",
        apiKey: "x",
        compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
        models: [{ id: SCRIPTED_MODEL_ID }],
      },
    },
  };
  await writeFile(path.join(agentDir, "models.json"), `${JSON.stringify(models, null, 2)}\n`);
}
