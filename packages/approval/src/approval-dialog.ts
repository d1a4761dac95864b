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
  /** Set when the call loads an MCP skill (or reads one of its files): the dialog names what it loads. */
  skill?: SkillApprovalSubject;
  signal?: AbortSignal;
}

/**
 * An MCP skill a call loads, as the dialog shows it: its name, and the files
 * the approval is bound to (path in the skill's folder, size in bytes), or
 * `"dynamic"` when the server lists none. `file`: the one file read now.
 */
export interface SkillApprovalSubject {
  name: string;
  uri: string;
  file?: string;
  files: readonly { path: string; size: number }[] | "dynamic";
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

/** At most this many of a skill's files are named in the dialog (a skill may list 512). */
const SKILL_FILES_SHOWN = 20;

/**
 * The dialog title: which tool of which server, what changed in it (if it
 * did), and a preview of its arguments; for an MCP skill, which skill of
 * which server and the files the approval is bound to.
 */
export function approvalTitle(prompt: ApprovalPrompt): string {
  if (prompt.skill) return skillApprovalTitle(prompt.serverName, prompt.skill);
  let args = JSON.stringify(prompt.args) ?? "{}";
  if (args.length > ARGS_PREVIEW_CHARS) args = `${args.slice(0, ARGS_PREVIEW_CHARS)}…`;
  const change = prompt.change?.length
    ? `\nThis tool changed since you accepted it:\n${prompt.change.map((line) => `  ${line}`).join("\n")}\nAllowing accepts the change.`
    : "";
  return `Allow MCP tool ${prompt.prefixedToolName} (server ${prompt.serverName}, tool ${prompt.originalToolName})?${change}\nArguments: ${args}`;
}

function skillApprovalTitle(server: string, skill: SkillApprovalSubject): string {
  const what = skill.file
    ? `Let the model read ${printable(skill.file)} of MCP skill ${skill.name} (server ${server})?`
    : `Load MCP skill ${skill.name} from server ${server} (${printable(skill.uri)})?`;
  const lines = [
    what,
    "Its content is written by the server, not by you; it reaches the model as untrusted.",
  ];
  if (skill.files === "dynamic") {
    lines.push("The server lists no files for it: each file it serves is read unchecked.");
    return lines.join("\n");
  }
  const total = skill.files.reduce((sum, file) => sum + file.size, 0);
  lines.push(
    `Allowing covers these ${skill.files.length} file${skill.files.length === 1 ? "" : "s"} (${total} bytes) as listed; a changed file asks again:`,
  );
  for (const file of skill.files.slice(0, SKILL_FILES_SHOWN))
    lines.push(`  ${printable(file.path)} (${file.size} bytes)`);
  const more = skill.files.length - SKILL_FILES_SHOWN;
  if (more > 0) lines.push(`  … and ${more} more`);
  return lines.join("\n");
}

/** Server-given text for one line of the dialog: no control characters. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "?");

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
