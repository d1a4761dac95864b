/**
 * Pi for tests that cannot run Pi itself: an isolated agent dir whose only
 * provider is a scripted model, and a stand-in for Pi's extension API that a
 * fresh child process drives the built extension with.
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

/**
 * A child's stand-in for Pi's extension API (source text to put in a child script): `pi` collecting the
 * handlers and tools, `fire(event, ctx)` running an event's handlers in turn as Pi does (awaited one after
 * another), and `ctx` for a session in the child's working directory (as Pi runs: the extension's startup
 * snapshot is then the session's). As thin as the extension allows, so what a child measures or records is
 * the extension's own.
 */
export const PI_STAND_IN = `
const handlers = new Map();
const tools = [];
const pi = {
  registerTool(t) { tools.push(t); }, registerCommand() {}, registerFlag() {}, getFlag() {},
  getAllTools() { return tools; }, on(e, h) { handlers.set(e, [...(handlers.get(e) ?? []), h]); },
  events: { on() { return () => {}; }, emit() {} },
};
const fire = async (e, ctx) => { for (const h of handlers.get(e) ?? []) await h({ type: e }, ctx); };
const ctx = { cwd: process.cwd(), hasUI: false, ui: { notify() {}, setStatus() {} } };
`;
