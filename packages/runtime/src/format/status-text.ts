/**
 * The status text a host shows before and beside calls: the server list of
 * `mcp({})` and `/mcp-adapter status`, with each server's running MCP tasks.
 * Kept apart from the search and describe renderings (format.ts) so a host's
 * start-up can load them without the search package.
 */
import { instructionsHead, refusedSkillNote, type SkippedList } from "@pi-mcp-adapter/catalog";
import { type ConfigProblem, formatProblem } from "@pi-mcp-adapter/config";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import type { RunningTask } from "../observability/running-tasks.js";
import { sharedLabel } from "../observability/shared-label.js";
import type { ServerSummary } from "../observability/status-events.js";

export function formatStatus(servers: ServerSummary[], problems: ConfigProblem[], now = Date.now()): string {
  const lines: string[] = [];
  if (servers.length === 0) {
    lines.push(
      problems.length
        ? "No MCP servers loaded (see below)."
        : "No MCP servers configured. Add servers to .mcp.json in the project (mcpServers).",
    );
  } else {
    lines.push(`MCP servers (${servers.length}):`);
    for (const s of servers) {
      const resources = s.resourceCount ? `, ${s.resourceCount} resources` : "";
      const prompts = s.promptCount ? `, ${s.promptCount} prompts` : "";
      const tools = s.toolCount === undefined ? "" : `, ${s.toolCount} tools${resources}${prompts}`;
      const retry =
        s.retryAt !== undefined && s.retryAt > now
          ? ` (next try in ${Math.ceil((s.retryAt - now) / 1000)}s)`
          : "";
      const failed =
        s.state === "failed" && s.failedAt !== undefined
          ? ` ${Math.round((now - s.failedAt) / 1000)}s ago: ${s.error ?? ""}${retry}`
          : "";
      const sandboxed = s.sandboxed ? " (sandboxed)" : "";
      const shared = sharedLabel(s.shared);
      lines.push(`- ${s.name}: ${s.state}${sandboxed}${shared ? `, ${shared}` : ""}${tools}${failed}`);
      for (const task of s.tasks ?? []) lines.push(`  ${formatRunningTask(task, now)}`);
      // The head of a server's instructions lives here rather than in the proxy tool's description,
      // which is in every prompt and must stay small however many servers there are.
      const head = instructionsHead(stripControlSequences(s.instructions ?? ""));
      if (head) lines.push(`  ${head}`);
      for (const skipped of s.skippedLists ?? []) lines.push(`  ${skippedListNote(skipped)}`);
      for (const refused of s.refusedSkills ?? []) lines.push(`  ${refusedSkillNote(s.name, refused)}`);
      const origin = serverOrigin(s);
      if (origin) lines.push(`  ${origin}`);
    }
    lines.push('Use mcp({search: "words"}) to find tools.');
  }
  for (const problem of problems) lines.push(`${problem.severity}: ${formatProblem(problem)}`);
  return stripControlSequences(lines.join("\n"));
}

/** Where a server is configured and how long its last connect took: `from ~/.pi/agent/mcp-adapter.json · last connect 412 ms`. */
function serverOrigin(s: Pick<ServerSummary, "source" | "connectMs">): string {
  const parts = [
    ...(s.source ? [`from ${s.source}`] : []),
    ...(s.connectMs !== undefined ? [`last connect ${formatDuration(s.connectMs)}`] : []),
  ];
  return parts.join(" · ");
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** What a listing lacks and why, for a status line: a declared list the server does not have, or one that failed. */
export function skippedListNote(skipped: SkippedList): string {
  const what = SKIPPED_WHAT[skipped.list];
  return skipped.reason === "unsupported"
    ? `${what}: none (the server declares them but answers ${skipped.list} with "method not found")`
    : `${what} left out: ${skipped.error} (listed again after an hour, or on reconnect)`;
}

const SKIPPED_WHAT: Record<SkippedList["list"], string> = {
  "resources/list": "resources",
  "resources/templates/list": "resource templates",
  "prompts/list": "prompts",
  "skills/list": "skills",
};

/** A running MCP task for `mcp({})`: tool, status, the server's message, how long, its id. */
function formatRunningTask(task: RunningTask, now: number): string {
  const message = task.message ? `: ${stripControlSequences(task.message)}` : "";
  const seconds = Math.max(0, Math.round((now - task.startedAt) / 1000));
  return `task ${task.tool} ${task.status.replace("_", " ")}${message} (${seconds}s, id ${task.taskId})`;
}
