/**
 * Remembers the latest connection of each server (kept after it closes), so
 * a `debug: true` server's recent stderr can be shown even once it has died.
 * Only the connection's own bounded stderr buffer is kept, nothing else.
 */
import type { ConnectionManagerOptions, ServerConnection } from "@pi-mcp-adapter/transport";

/** Lines of stderr shown for a debug server. */
export const DEBUG_STDERR_LINES = 20;

type Connect = ConnectionManagerOptions["connect"];

export class StderrTails {
  private readonly latest = new Map<string, Pick<ServerConnection, "stderrTail">>();

  /** Wraps a connect function so every connection it makes is remembered. */
  track(connect: Connect): Connect {
    return async (definition, signal) => {
      const connection = await connect(definition, signal);
      this.latest.set(definition.name, connection);
      return connection;
    };
  }

  /** The last lines a server wrote to stderr (empty when it never connected or is remote). */
  tail(name: string, lines = DEBUG_STDERR_LINES): string[] {
    return this.latest.get(name)?.stderrTail(lines) ?? [];
  }
}

/** The block shown under a debug server's status; empty when there is nothing to show. */
export function formatDebugStderr(name: string, lines: readonly string[]): string {
  if (lines.length === 0) return "";
  return [`Recent stderr of ${name} (debug):`, ...lines.map((line) => `  ${line}`)].join("\n");
}
