/**
 * The adapter's part of Pi's footer status line (`ctx.ui.setStatus`), and the
 * start-up connect notices. `mcpFooterStatus`: "full" (default) names
 * connected / failed / needs-auth counts and the tool total, "compact" only
 * the counts, "off" shows nothing; `showStatusIcon` (default true) puts a
 * state mark in front. The text follows every status snapshot. A running
 * call's progress shows as an entry of its own.
 */
import type { McpStatusSnapshot, ServerSummary } from "@pi-mcp-adapter/runtime/startup";

/** The key of our entry in Pi's status line. */
export const FOOTER_STATUS_KEY = "pi-mcp-adapter";

/**
 * A running call's progress gets an entry of its own beside ours (one per
 * server and tool, so calls running side by side each show theirs), cleared
 * when the call ends.
 */
export function progressStatus(server: string, tool: string, text: string | undefined) {
  return {
    key: `${FOOTER_STATUS_KEY}:progress:${server}/${tool}`,
    text: text && `MCP ${server}/${tool} ${text}`,
  };
}

export interface FooterSettings {
  mcpFooterStatus?: "full" | "compact" | "off";
  showStatusIcon?: boolean;
}

/** The footer text for `snapshot`, or `undefined` (no entry) when off or no server is enabled. */
export function footerText(snapshot: McpStatusSnapshot, settings: FooterSettings = {}): string | undefined {
  const mode = settings.mcpFooterStatus ?? "full";
  const enabled = snapshot.servers.filter((s) => !s.disabled);
  if (mode === "off" || enabled.length === 0) return undefined;
  const count = (state: string) => enabled.filter((s) => s.status === state).length;
  const connected = count("connected");
  const failed = count("failed");
  const needsAuth = count("needs-auth");
  // ● all well, ▲ something needs the user.
  const icon = settings.showStatusIcon === false ? "" : failed || needsAuth ? "▲ " : "● ";
  if (mode === "compact") {
    const marks = [failed ? `✗${failed}` : "", needsAuth ? `⚿${needsAuth}` : ""].filter(Boolean);
    return `${icon}MCP ${connected}/${enabled.length}${marks.length ? ` ${marks.join(" ")}` : ""}`;
  }
  const parts = [`${connected}/${enabled.length} connected`];
  if (failed) parts.push(`${failed} failed`);
  if (needsAuth) parts.push(`${needsAuth} need${needsAuth === 1 ? "s" : ""} auth`);
  const tools = `${snapshot.totalTools} tool${snapshot.totalTools === 1 ? "" : "s"}`;
  return `${icon}MCP: ${parts.join(", ")} · ${tools}`;
}

export interface StartupNotice {
  message: string;
  level: "info" | "warning";
}

/**
 * Notices for the servers start-up connected (eager and keep-alive ones):
 * failures and needed logins always, the routine "connected" line only
 * with `notifyOnStartupConnect` (default true).
 */
export function startupNotices(
  started: readonly Pick<ServerSummary, "name" | "state" | "error" | "toolCount">[],
  notifyOnStartupConnect = true,
): StartupNotice[] {
  const notices: StartupNotice[] = [];
  const connected = started.filter((s) => s.state === "connected");
  if (notifyOnStartupConnect && connected.length) {
    const names = connected.map((s) =>
      s.toolCount === undefined ? s.name : `${s.name} (${s.toolCount} tool${s.toolCount === 1 ? "" : "s"})`,
    );
    notices.push({ message: `MCP: connected ${names.join(", ")}`, level: "info" });
  }
  for (const s of started) {
    if (s.state === "failed") {
      notices.push({
        message: `MCP: "${s.name}" failed to connect: ${s.error ?? "unknown error"}`,
        level: "warning",
      });
    } else if (s.state === "needs-auth") {
      notices.push({ message: `MCP: "${s.name}" needs a login: run /mcp-auth ${s.name}`, level: "warning" });
    }
  }
  return notices;
}
