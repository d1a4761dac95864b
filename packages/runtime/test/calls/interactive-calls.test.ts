/**
 * Calls that involve the user, through the runtime's own dialogs against a
 * real in-process SDK server: a form or a sampling approval answered after
 * the request timeout still lets the call succeed; a server asking between
 * calls is refused without a dialog; a URL step holds the timeouts until the
 * server sends `elicitation/complete`, which closes the waiting dialog; and
 * the server's progress reaches `Host.progress`, at most once a second.
 * Nothing waits a fixed time: a slow answer is held until the timeout's
 * moment is seen to pass, and the URL case runs on a manual clock.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CreateMessageResultSchema, ElicitResultSchema } from "@modelcontextprotocol/sdk/types.js";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  browserStepTool,
  connectInMemory,
  createFixtureServer,
  type FixtureTool,
  gate,
  type ManualClock,
  manualClock,
} from "@pi-mcp-adapter/test-kit";
import { connectServer } from "@pi-mcp-adapter/transport";
import { afterEach, describe, expect, it, vi } from "vitest";
import { callProgress, PROGRESS_INTERVAL_MS, progressText } from "../../src/calls/call-progress.js";
import { clientHandlersFor } from "../../src/client-features/client-handlers.js";
import { URL_OPEN_MYSELF } from "../../src/client-features/elicitation-flow.js";
import { FORM_START } from "../../src/client-features/elicitation-form.js";
import { SAMPLING_CHOICES } from "../../src/client-features/sampling-flow.js";
import { URL_STOP_WAITING } from "../../src/client-features/url-elicitation-wait.js";
import { AdapterRuntime, type CallResult, type Host, headlessHost } from "../../src/index.js";

const TIMEOUT_MS = 300;
/** How `vi.waitUntil` looks for the moment to answer. */
const HOLD = { timeout: 30_000, interval: 10 };

let open: AdapterRuntime | undefined;
afterEach(async () => {
  await open?.shutdown();
  open = undefined;
});

const text = (result: CallResult) => result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");

/** A dialog shown to the scripted user: its title, choices and dismissal signal. */
interface Shown {
  title: string;
  choices?: string[];
  signal?: AbortSignal;
}

/**
 * A host with a UI whose user answers each dialog with `answer` (which may
 * take its time); a dialog whose signal aborts closes with no answer, as
 * Pi's do. Its model answers "model says hi".
 */
function interactiveHost(answer: (dialog: Shown) => Promise<string | undefined>, extra: Partial<Host> = {}) {
  const shown: Shown[] = [];
  const ask = (dialog: Shown) => {
    shown.push(dialog);
    const dismissed = new Promise<undefined>((resolve) => {
      dialog.signal?.addEventListener("abort", () => resolve(undefined), { once: true });
    });
    return Promise.race([answer(dialog), dismissed]);
  };
  const host: Host = {
    ...headlessHost(),
    hasUI: true,
    dialogs: {
      select: (title, choices, options) => ask({ title, choices, signal: options?.signal }),
      input: (title, _placeholder, options) => ask({ title, signal: options?.signal }),
      confirm: async () => false,
    },
    sample: async () => ({ role: "assistant", content: { type: "text", text: "model says hi" }, model: "m" }),
    ...extra,
  };
  return { host, shown };
}

const definition: ServerDefinition = {
  name: "srv",
  transport: "stdio",
  command: "unused",
  lifecycle: "lazy",
  protocol: "legacy",
  requestTimeoutMs: TIMEOUT_MS,
  source: { file: "/p/.mcp.json", key: "mcpServers.srv" },
};

/** A runtime over one in-process server with `tools`, answering its requests through `host` like `createRuntime` does. */
function runtimeWith(host: Host, tools: FixtureTool[], clock?: ManualClock) {
  let server: Server | undefined;
  open = new AdapterRuntime({
    servers: [definition],
    host,
    connect: async (d) => {
      server = createFixtureServer({ name: "srv", tools });
      const transport = await connectInMemory(server);
      const time = clock ? { now: clock.now, timers: clock.timers } : {};
      return connectServer(d, { transport, handlers: clientHandlersFor(host), ...time });
    },
  });
  return { runtime: open, server: () => server as Server };
}

const askName: FixtureTool = {
  name: "ask_name",
  handler: async (_args, extra) => {
    const answer = await extra.sendRequest(
      {
        method: "elicitation/create",
        params: {
          message: "Who are you?",
          requestedSchema: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
        },
      },
      ElicitResultSchema,
    );
    return { content: [{ type: "text", text: JSON.stringify(answer) }] };
  },
};

const askModel: FixtureTool = {
  name: "ask_model",
  handler: async (_args, extra) => {
    const answer = await extra.sendRequest(
      {
        method: "sampling/createMessage",
        params: { messages: [{ role: "user", content: { type: "text", text: "Hi" } }], maxTokens: 5 },
      },
      CreateMessageResultSchema,
    );
    return { content: [{ type: "text", text: JSON.stringify(answer.content) }] };
  },
};

describe("time the user takes never counts against the call", () => {
  it("a form answered after the request timeout: the call succeeds with the answers", async () => {
    let started = 0;
    const { host, shown } = interactiveHost(async (dialog) => {
      if (dialog.choices?.includes(FORM_START[0])) {
        // The user reads the form for longer than the whole request timeout.
        await vi.waitUntil(() => Date.now() - started > 2 * TIMEOUT_MS, HOLD);
        return FORM_START[0];
      }
      return dialog.choices ? "Send" : "Ada";
    });
    const { runtime } = runtimeWith(host, [askName]);
    await runtime.catalog.view(); // connected: what follows is the call alone
    started = Date.now();
    const result = await runtime.call("srv_ask_name", {});
    expect(Date.now() - started).toBeGreaterThan(2 * TIMEOUT_MS);
    expect(result.isError).toBe(false);
    expect(JSON.parse(text(result))).toEqual({ action: "accept", content: { name: "Ada" } });
    expect(shown.map((d) => d.title.split("\n")[0])).toEqual([
      'MCP server "srv" asks for input:',
      expect.stringContaining("name"),
      expect.stringContaining("Send these answers"),
    ]);
  });

  it("a sampling approval given after the request timeout: the model's answer reaches the server", async () => {
    let started = 0;
    const { host } = interactiveHost(async () => {
      await vi.waitUntil(() => Date.now() - started > 2 * TIMEOUT_MS, HOLD);
      return SAMPLING_CHOICES[0];
    });
    const { runtime } = runtimeWith(host, [askModel]);
    await runtime.catalog.view();
    started = Date.now();
    const result = await runtime.call("srv_ask_model", {});
    expect(Date.now() - started).toBeGreaterThan(2 * TIMEOUT_MS);
    expect(JSON.parse(text(result))).toEqual({ type: "text", text: "model says hi" });
  });
});

describe("server requests only during a call", () => {
  it("a server asking between calls gets an error and the user sees no dialog", async () => {
    const { host, shown } = interactiveHost(async () => "Decline");
    const { runtime, server } = runtimeWith(host, [askName]);
    await runtime.catalog.view();
    const refused = await server()
      .elicitInput({ message: "Out of the blue?", requestedSchema: { type: "object", properties: {} } })
      .then(
        () => undefined,
        (error: { code?: number }) => error.code,
      );
    expect(refused).toBe(-32600);
    expect(shown).toEqual([]);
    // Within a call the same server is answered.
    const result = await runtime.call("srv_ask_name", {});
    expect(JSON.parse(text(result))).toEqual({ action: "decline" });
    expect(shown).toHaveLength(1);
  });
});

describe("URL elicitation: the wait for the browser step", () => {
  it("holds the timeouts while the user is in the browser; elicitation/complete closes the waiting dialog", async () => {
    const clock = manualClock();
    const step = browserStepTool("sign_in", "https://login.example.com/x", "e7");
    const waiting = gate<Shown>();
    const { host } = interactiveHost(async (dialog) => {
      if (!dialog.choices?.includes(URL_STOP_WAITING)) return URL_OPEN_MYSELF;
      waiting.open(dialog);
      return new Promise<undefined>(() => {}); // the user never clicks: only the server closes it
    });
    const { runtime } = runtimeWith(host, [step.tool], clock);
    const call = runtime.call("srv_sign_in", {});
    const dialog = await waiting.opened;
    expect(dialog.title).toContain(
      'MCP server "srv" is waiting for you to finish in your browser (login.example.com).',
    );
    clock.advance(60_000); // a minute in the browser, 200 request timeouts: none of it counts
    step.browserDone();
    await vi.waitUntil(() => dialog.signal?.aborted === true, HOLD);
    clock.advance(TIMEOUT_MS - 1); // the timeout runs again, afresh
    step.finish();
    const result = await call;
    expect(result.isError).toBe(false);
    expect(JSON.parse(text(result))).toEqual({ action: "accept" });
  });
});

describe("progress of a running call", () => {
  it("reaches Host.progress as one line, at most once a second, and is cleared when the call ends", async () => {
    const seen: { text: string | undefined; at: number }[] = [];
    const progress: Host["progress"] = (server, tool, line) => {
      expect([server, tool]).toEqual(["srv", "build"]);
      seen.push({ text: line, at: Date.now() });
    };
    const build: FixtureTool = {
      name: "build",
      handler: async (_args, extra) => {
        for (let step = 1; step <= 4; step++) {
          await extra.sendNotification({
            method: "notifications/progress",
            params: {
              progressToken: extra.progressToken as string,
              progress: step,
              total: 4,
              message: `step ${step}`,
            },
          });
        }
        return { content: [{ type: "text", text: "built" }] };
      },
    };
    const { runtime } = runtimeWith(headlessHost({ progress }), [build]);
    expect(text(await runtime.call("srv_build", {}))).toBe("built");
    expect(seen[0]?.text).toBe("1/4 · step 1");
    expect(seen.at(-1)?.text).toBeUndefined();
    const lines = seen.filter((s) => s.text !== undefined);
    for (let i = 1; i < lines.length; i++) {
      expect(lines[i]!.at - lines[i - 1]!.at).toBeGreaterThanOrEqual(PROGRESS_INTERVAL_MS - 5);
    }
  });

  it("shows the first update at once, the latest of a busy second when it is over, nothing after the end", () => {
    const clock = manualClock();
    const lines: (string | undefined)[] = [];
    const reporter = callProgress((_s, _t, line) => lines.push(line), "srv", "build", clock);
    reporter.report({ progress: 1 });
    reporter.report({ progress: 2 });
    reporter.report({ progress: 3, total: 10, message: "linking\u001b[31m now\n" });
    expect(lines).toEqual(["1"]);
    clock.advance(PROGRESS_INTERVAL_MS);
    expect(lines).toEqual(["1", "3/10 · linking now"]);
    reporter.report({ progress: 4 });
    reporter.end();
    clock.advance(PROGRESS_INTERVAL_MS);
    expect(lines).toEqual(["1", "3/10 · linking now", undefined]);
    expect(progressText({ progress: 1, message: "x".repeat(500) })).toHaveLength(1 + 3 + 120);
  });
});
