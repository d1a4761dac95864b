/**
 * The question put to the user. The package knows no UI: the host passes a
 * dialog function; `selectApprovalDialog` builds one from any "pick one of
 * these options" prompt, such as Pi's `ctx.ui.select`.
 */

export type DialogDecision = "allow_once" | "allow_for_session" | "allow_server_for_session" | "deny";

export interface ApprovalPrompt {
  serverName: string;
  originalToolName: string;
  prefixedToolName: string;
  args: Readonly<Record<string, unknown>>;
  /** The tool changed since it was accepted: what changed, one line each. Allowing accepts the change. */
  change?: readonly string[];
  signal?: AbortSignal;
}

/** Asks the user; `undefined` (dismissed, timed out) counts as a denial. */
export type ApprovalDialog = (prompt: ApprovalPrompt) => Promise<DialogDecision | undefined>;

export const APPROVAL_CHOICES: Readonly<Record<DialogDecision, string>> = {
  allow_once: "Allow once",
  allow_for_session: "Allow for session",
  allow_server_for_session: "Allow this server for the session",
  deny: "Deny",
};

export type SelectPrompt = (
  title: string,
  options: string[],
  opts?: { signal?: AbortSignal },
) => Promise<string | undefined>;

const ARGS_PREVIEW_CHARS = 400;

/** The dialog title: which tool of which server, what changed in it (if it did), and a preview of its arguments. */
export function approvalTitle(prompt: ApprovalPrompt): string {
  let args = JSON.stringify(prompt.args) ?? "{}";
  if (args.length > ARGS_PREVIEW_CHARS) args = `${args.slice(0, ARGS_PREVIEW_CHARS)}…`;
  const change = prompt.change?.length
    ? `\nThis tool changed since you accepted it:\n${prompt.change.map((line) => `  ${line}`).join("\n")}\nAllowing accepts the change.`
    : "";
  return `Allow MCP tool ${prompt.prefixedToolName} (server ${prompt.serverName}, tool ${prompt.originalToolName})?${change}\nArguments: ${args}`;
}

export function selectApprovalDialog(select: SelectPrompt): ApprovalDialog {
  return async (prompt) => {
    const labels = Object.entries(APPROVAL_CHOICES) as [DialogDecision, string][];
    const answer = await select(
      approvalTitle(prompt),
      labels.map(([, label]) => label),
      prompt.signal ? { signal: prompt.signal } : undefined,
    );
    return labels.find(([, label]) => label === answer)?.[0];
  };
}
