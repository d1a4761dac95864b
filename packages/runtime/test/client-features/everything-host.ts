/**
 * The host and server for the client-features tests against server-everything
 * over stdio: a host with a UI whose "user" answers scripted dialogs and whose
 * model echoes, and a runtime holding server-everything that each test file
 * shuts down after each test (`afterEach(shutdownOpen)`).
 */
import { serverEverythingPath } from "@pi-mcp-adapter/test-kit";
import type { SamplingRequest } from "../../src/host.js";
import {
  type AdapterRuntime,
  type CallResult,
  createRuntime,
  type Host,
  headlessHost,
} from "../../src/index.js";

interface Asked {
  kind: "select" | "input" | "confirm";
  title: string;
  choices?: string[];
}

/** A host with a UI whose user answers each dialog in turn, and a model that echoes the last message. */
export function uiHost(answers: (string | boolean | undefined)[]) {
  const asked: Asked[] = [];
  const sampled: SamplingRequest[] = [];
  const notices: string[] = [];
  const next = () => answers.shift();
  const host: Host = {
    ...headlessHost({ notify: (message) => notices.push(message) }),
    hasUI: true,
    dialogs: {
      select: async (title, choices) => {
        asked.push({ kind: "select", title, choices });
        return next() as string | undefined;
      },
      input: async (title) => {
        asked.push({ kind: "input", title });
        return next() as string | undefined;
      },
      confirm: async (title) => {
        asked.push({ kind: "confirm", title });
        return next() as boolean;
      },
    },
    sample: async (request) => {
      sampled.push(request);
      const last = request.messages.at(-1)?.content as { text: string };
      return {
        role: "assistant",
        content: { type: "text", text: `model says: ${last.text}` },
        model: "test/echo",
        stopReason: "endTurn",
        usage: { inputTokens: 20, outputTokens: 6 },
      };
    },
  };
  return { host, asked, sampled, notices };
}

/** The runtime the current test opened; shutdownOpen closes it. */
export const live: { open: AdapterRuntime | undefined } = { open: undefined };

export async function shutdownOpen(): Promise<void> {
  await live.open?.shutdown();
  live.open = undefined;
}

export async function everything(
  host: Host,
  settings: Record<string, unknown> = {},
): Promise<AdapterRuntime> {
  live.open = await createRuntime({
    cwd: process.cwd(),
    config: {
      mcpServers: { everything: { command: process.execPath, args: [serverEverythingPath] } },
      settings,
    },
    metadataCacheFile: false,
    npxCacheFile: false,
    host,
  });
  return live.open;
}

export const text = (result: CallResult) =>
  result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
export const toolNames = async (runtime: AdapterRuntime) =>
  (await runtime.catalog.view()).tools.map((t) => t.name);
