import type { ExtensionAPI, ExtensionContext } from "@mariozechner/pi-coding-agent";
import { createRuntime, runProxyRequest } from "@pi-mcp-adapter/runtime";
import { createFixtureServer, createTempDir, serveOAuthProtectedMcp } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { logoutSubcommand, registerOAuthCommands } from "../../src/pi/commands/oauth-commands.js";

type Handler = (args: string, ctx: ExtensionContext) => Promise<void>;

/** The parts of Pi's API and context these commands use, recording what they show. */
function recordingHost(answerInput: (title: string) => Promise<string | undefined>) {
  const commands = new Map<string, Handler>();
  const notes: Array<{ message: string; level: string }> = [];
  const pi = {
    registerCommand: (name: string, options: { handler: Handler }) => commands.set(name, options.handler),
  } as unknown as ExtensionAPI;
  const ctx = {
    cwd: "/",
    hasUI: true,
    ui: {
      notify: (message: string, level = "info") => notes.push({ message, level }),
      input: (title: string) => answerInput(title),
      select: async () => undefined,
    },
  } as unknown as ExtensionContext;
  return { pi, ctx, commands, notes };
}

describe("/mcp-auth and /mcp-adapter logout", () => {
  it("logs in by paste, reconnects, and logout deletes and revokes", async () => {
    await using dir = await createTempDir();
    await using as = await serveOAuthProtectedMcp({
      makeServer: () => createFixtureServer({ tools: [{ name: "echo" }] }),
    });
    const runtime = await createRuntime({
      cwd: dir.path,
      config: { settings: { oauthCredentialStore: "memory" }, mcpServers: { docs: { url: as.url } } },
      metadataCacheFile: false,
    });
    try {
      let shownUrl: string | undefined;
      const host = recordingHost(async () => as.approve(shownUrl as string));
      const runtimeFor = async () => runtime;
      registerOAuthCommands(host.pi, runtimeFor);
      const original = host.ctx.ui.notify;
      host.ctx.ui.notify = (message, level) => {
        shownUrl ??= message.split("\n").find((line) => line.startsWith("http"));
        original(message, level);
      };

      await host.commands.get("mcp-auth")?.("docs", host.ctx);
      expect(host.notes.map((n) => n.message)).toContain('Logged in to "docs"');
      expect(host.notes.every((n) => n.level !== "error")).toBe(true);
      // The reconnect after the login already listed the tools with the new token.
      expect(as.mcpAuthorizations.some((a) => a.startsWith("Bearer "))).toBe(true);
      const call = await runProxyRequest(runtime, { tool: "docs_echo", args: { text: "hi" } });
      expect(call.content).toEqual([{ type: "text", text: '{"text":"hi"}' }]);

      host.notes.length = 0;
      const table = [logoutSubcommand(runtimeFor)];
      const adapter = (args: string) => runAdapterCommand(table, args, host.ctx);
      await adapter("logout docs");
      expect(host.notes[0]?.message).toBe(
        'Logged out of "docs": local credentials deleted (the server revoked the token)',
      );
      expect(as.revoked.length).toBeGreaterThan(0);
      await adapter("logout docs");
      expect(host.notes[1]?.message).toBe('No stored credentials for "docs"');
      await adapter("logout");
      expect(host.notes[2]).toEqual({ message: "Usage: /mcp-adapter logout <server>", level: "warning" });
      await adapter("logout nope");
      // A server no longer configured may still have credentials to delete: no error, just the outcome.
      expect(host.notes[3]?.message).toBe('No stored credentials for "nope"');
      await adapter("enable docs");
      expect(host.notes[4]?.message).toMatch(
        /^Unknown subcommand "enable"\. Usage:\n\/mcp-adapter logout <server> — /,
      );
      expect(host.notes[4]?.level).toBe("warning");
    } finally {
      await runtime.shutdown();
    }
  });
});
