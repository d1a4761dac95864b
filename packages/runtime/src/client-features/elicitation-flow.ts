/**
 * Answers a server's `elicitation/create` with the host's dialogs: form mode
 * through `elicitation-form.ts`, URL mode through a consent dialog that shows
 * the requesting server, the host and the full URL (after the URL passed
 * `elicitation-url.ts`). Also the `-32042` URL-required tool error: the same
 * consent flow, then a message telling the model to retry the call.
 */
import type { ElicitRequestParams, ElicitResult } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type { HandlerContext } from "@pi-mcp-adapter/transport";
import type { Host } from "../host.js";
import type { DialogQueue } from "./dialog-queue.js";
import { runElicitationForm } from "./elicitation-form.js";
import { checkElicitationUrl } from "./elicitation-url.js";
import { waitForBrowserStep } from "./url-elicitation-wait.js";

/** Consent choices of a URL elicitation: with a host that opens URLs, and without one. */
export const URL_OPEN = "Open in browser";
export const URL_OPEN_MYSELF = "I will open it myself";
export const URL_DECLINE = "Decline";

/** The JSON-RPC error code of "URL elicitation required" tool errors. */
export const URL_ELICITATION_REQUIRED = -32042;

/** One URL a server needs the user to visit. */
export interface UrlElicitation {
  url: string;
  message: string;
  elicitationId?: string;
}

/**
 * The elicitation handler for `ClientHandlers`: forms and URLs, always
 * through the host's dialogs, one flow at a time (`queue`). After consent to
 * a URL with an `elicitationId`, the server's timeouts are held while the
 * user is in the browser (`url-elicitation-wait.ts`); the answer goes to the
 * server at once, the wait runs on.
 */
export function elicitationHandler(
  host: Host,
  queue: DialogQueue,
): (params: ElicitRequestParams, context: HandlerContext) => Promise<ElicitResult> {
  return async (params, context) => {
    const { server, signal } = context;
    if (params.mode !== "url") {
      return queue(() =>
        runElicitationForm(host.dialogs, server, params.message, params.requestedSchema, signal),
      );
    }
    const action = await queue(() => runUrlElicitation(host, server, params, signal));
    const checked = checkElicitationUrl(params.url);
    if (action === "accept" && params.elicitationId && checked.ok) {
      const request = { server, elicitationId: params.elicitationId, host: checked.host };
      void waitForBrowserStep(host, queue, request, context).catch(() => {});
    }
    return { action };
  };
}

/**
 * Shows one URL for consent. A URL breaking a safety rule is never shown: the
 * user gets a notice with the reason and the server a `decline`.
 */
export async function runUrlElicitation(
  host: Host,
  server: string,
  request: { url: string; message: string },
  signal?: AbortSignal,
): Promise<ElicitResult["action"]> {
  const checked = checkElicitationUrl(request.url);
  if (!checked.ok) {
    host.notify(
      `MCP server "${server}" asked you to open a URL that was refused: ${checked.reason}.`,
      "warning",
    );
    return "decline";
  }
  const open = host.openUrl ? URL_OPEN : URL_OPEN_MYSELF;
  const title = [
    `MCP server "${server}" asks you to open a web page:`,
    stripControlSequences(request.message),
    `Host: ${checked.host}`,
    `URL: ${checked.url}`,
    ...checked.warnings.map((w) => `⚠ ${w}`),
  ].join("\n");
  const choice = await host.dialogs.select(title, [open, URL_DECLINE], signal ? { signal } : undefined);
  if (choice === undefined) return "cancel";
  if (choice === URL_DECLINE) return "decline";
  if (host.openUrl) {
    // Consent was given either way; a browser that fails to start leaves the user to copy the URL.
    await host
      .openUrl(checked.url)
      .catch(() => host.notify(`Open this URL in your browser: ${checked.url}`, "info"));
  }
  return "accept";
}

/** The URLs of a `-32042` error (anywhere in its `cause` chain), or `undefined` for any other error. */
export function urlElicitationsOf(error: unknown): UrlElicitation[] | undefined {
  for (let e = error, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const candidate = e as { code?: unknown; data?: unknown; cause?: unknown };
    if (candidate.code === URL_ELICITATION_REQUIRED) {
      const list = (candidate.data as { elicitations?: unknown } | undefined)?.elicitations;
      if (!Array.isArray(list)) return [];
      return list
        .filter((x): x is { url: string } => !!x && typeof (x as { url?: unknown }).url === "string")
        .map((x) => {
          const { url, message, elicitationId } = x as {
            url: string;
            message?: unknown;
            elicitationId?: unknown;
          };
          return {
            url,
            message: typeof message === "string" ? message : "",
            ...(typeof elicitationId === "string" ? { elicitationId } : {}),
          };
        });
    }
    e = candidate.cause;
  }
  return undefined;
}

/**
 * Runs the URL flow for a `-32042` tool error and returns what the model
 * reads instead of the error. Without a UI (or with `elicitation: false`) no
 * dialog opens and the model is told that a person must do the step.
 */
export async function explainUrlElicitationRequired(
  host: Host,
  enabled: boolean,
  server: string,
  tool: string,
  elicitations: UrlElicitation[],
  signal?: AbortSignal,
): Promise<string> {
  const head = `MCP server "${server}" needs the user to complete a step in a web browser before ${tool} can run (URL elicitation required, -32042).`;
  if (elicitations.length === 0) return `${head} The server named no URL; the call cannot go ahead.`;
  if (!enabled || !host.hasUI) {
    const urls = elicitations.map((e) => {
      const checked = checkElicitationUrl(e.url);
      return checked.ok
        ? `- ${checked.url}${e.message ? ` (${stripControlSequences(e.message)})` : ""}`
        : `- a URL refused as unsafe: ${checked.reason}`;
    });
    return `${head} This session cannot ask the user, so nothing was opened. Ask the user to complete it:\n${urls.join("\n")}\nThen retry the original call with the same arguments.`;
  }
  const lines: string[] = [];
  let accepted = 0;
  for (const elicitation of elicitations) {
    const checked = checkElicitationUrl(elicitation.url);
    if (!checked.ok) {
      lines.push(`- a URL refused as unsafe (${checked.reason}); it was not shown to the user`);
      continue;
    }
    const action = await runUrlElicitation(host, server, elicitation, signal);
    if (action === "accept") accepted++;
    lines.push(
      `- ${checked.url}: ${action === "accept" ? "the user agreed to open it" : `the user chose ${action}`}`,
    );
  }
  const next =
    accepted === elicitations.length
      ? "After the user has completed the step in the browser, retry the original call with the same arguments."
      : "Do not retry unless the user asks to.";
  return `${head}\n${lines.join("\n")}\n${next}`;
}
