/**
 * `daemon status|stop`: the per-user daemon that runs shared stdio servers
 * (`settings.shareServers`) — whether it runs, its servers and how many
 * sessions use each; or stop it with every server it runs (sessions that use
 * one reconnect, starting a new daemon, at their next call). Neither starts a
 * daemon or a server.
 */
import { type DaemonStatus, daemonStatus, stopDaemon } from "@pi-mcp-adapter/daemon";
import { type ServerSummary, sharedLabel } from "@pi-mcp-adapter/runtime/startup";
import type { CliOutput } from "./cli-context.js";
import { CliError } from "./cli-error.js";

const NOT_RUNNING =
  "No shared-server daemon is running (a session starts one when it first uses a shared server: settings.shareServers).";

/** `agentDir`: where the daemon of this user runs (the environment's agent dir). */
export async function daemonCli(words: string[], agentDir: string): Promise<CliOutput> {
  const [action = "status", ...rest] = words;
  if (rest.length || (action !== "status" && action !== "stop")) {
    throw new CliError("cli_usage", `daemon takes "status" or "stop", not "${words.join(" ")}"`);
  }
  const status = await daemonStatus(agentDir);
  if (action === "status") {
    return {
      text: status ? daemonStatusText(status) : NOT_RUNNING,
      json: { running: !!status, daemon: status ?? null },
    };
  }
  const stopped = status ? await stopDaemon(agentDir) : false;
  const servers = status?.servers.length ?? 0;
  return {
    text: stopped
      ? `Stopped the shared-server daemon (pid ${status?.pid}) and its ${servers} server${servers === 1 ? "" : "s"}.`
      : "No shared-server daemon was running.",
    json: { stopped, pid: stopped ? (status?.pid ?? null) : null, servers },
  };
}

/**
 * The CLI's servers with what the running daemon knows: a server the CLI has
 * not connected shows the sessions using the daemon's process of that name.
 * Never starts a daemon; an unreachable one counts as none.
 */
export async function withSharedSessions(
  servers: ServerSummary[],
  agentDir: string,
): Promise<{ servers: ServerSummary[]; daemon: DaemonStatus | undefined }> {
  const daemon = await daemonStatus(agentDir).catch(() => undefined);
  const sessions = new Map<string, number>();
  for (const server of daemon?.servers ?? []) {
    // Config entries alike share one process, each under its own name (an older daemon gives only the first).
    for (const name of server.names ?? [server.name]) {
      sessions.set(name, (sessions.get(name) ?? 0) + server.sessions);
    }
  }
  return {
    daemon,
    servers: servers.map((s) => {
      const count = sessions.get(s.name);
      return s.shared || !count ? s : { ...s, shared: { sessions: count } };
    }),
  };
}

function daemonStatusText(status: DaemonStatus): string {
  const lines = [
    `Shared-server daemon: pid ${status.pid}, up ${duration(status.uptimeMs)}, ${status.sessions} session${status.sessions === 1 ? "" : "s"}`,
    `Socket: ${status.socketPath}`,
    `Log: ${status.logPath}`,
  ];
  if (status.servers.length === 0) lines.push("No servers running.");
  else lines.push(`Servers (${status.servers.length}):`);
  for (const server of status.servers) {
    const use = server.idleSince
      ? `no session since ${server.idleSince} (stops after its idle time)`
      : sharedLabel({ sessions: server.sessions });
    const also = (server.names ?? []).filter((name) => name !== server.name);
    const named = also.length ? `${server.name} (also ${also.join(", ")})` : server.name;
    lines.push(`- ${named}: pid ${server.pid}, ${use}`);
  }
  return lines.join("\n");
}

function duration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${seconds % 60}s`;
  return `${Math.floor(minutes / 60)}h ${minutes % 60}m`;
}
