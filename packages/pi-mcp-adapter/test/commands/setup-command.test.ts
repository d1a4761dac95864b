/**
 * `/mcp-adapter setup` through the subcommand table, with a real runtime and
 * real files in a temp HOME: the text overview and word actions without a
 * UI, and the dialog menu with scripted answers. (apps/e2e drives the same
 * menu through real Pi's RPC dialogs.)
 */
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { ExtensionCommandContext } from "@mariozechner/pi-coding-agent";
import { type AdapterRuntime, createRuntime } from "@pi-mcp-adapter/runtime";
import { createTempDir, type TempDir } from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { runAdapterCommand } from "../../src/pi/commands/adapter-command.js";
import { setupSubcommand } from "../../src/pi/commands/setup-command.js";

interface Dialog {
  method: "select" | "confirm";
  title: string;
  options?: string[];
  message?: string;
}

let dir: TempDir;
let home: string;
let project: string;
let runtime: AdapterRuntime | undefined;

beforeEach(async () => {
  dir = await createTempDir();
  home = dir.join("home");
  project = dir.join("project");
  await mkdir(project, { recursive: true });
  vi.stubEnv("HOME", home);
  vi.stubEnv("PI_CODING_AGENT_DIR", undefined);
  vi.stubEnv("XDG_CONFIG_HOME", undefined);
});

afterEach(async () => {
  await runtime?.shutdown();
  runtime = undefined;
  vi.unstubAllEnvs();
  await dir.remove();
});

async function writeJson(file: string, value: unknown) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

/** A command context; `answer` scripts the dialogs (omit it for a host without UI). */
function context(answer?: (dialog: Dialog) => string | boolean | undefined) {
  const notes: { message: string; level: string }[] = [];
  const dialogs: Dialog[] = [];
  const ask = (dialog: Dialog) => {
    dialogs.push(dialog);
    return answer?.(dialog);
  };
  const ctx = {
    cwd: project,
    hasUI: answer !== undefined,
    ui: {
      notify: (message: string, level = "info") => notes.push({ message, level }),
      select: async (title: string, options: string[]) => ask({ method: "select", title, options }),
      confirm: async (title: string, message: string) => ask({ method: "confirm", title, message }) === true,
    },
  } as unknown as ExtensionCommandContext;
  return { ctx, notes, dialogs };
}

async function table(inlineConfig = false) {
  runtime = await createRuntime({ cwd: project, metadataCacheFile: false, npxCacheFile: false });
  const current = runtime;
  return [setupSubcommand({ runtimeFor: async () => current, configPath: () => undefined, inlineConfig })];
}

const cursorFile = () => path.join(home, ".cursor", "mcp.json");
const adapterFile = () => path.join(home, ".pi", "agent", "mcp-adapter.json");

describe("/mcp-adapter setup", () => {
  it("without a UI prints the overview, and its words adopt a host live", async () => {
    await writeJson(cursorFile(), { mcpServers: { "cursor-tools": { command: "cursor-tools-mcp" } } });
    const subcommands = await table();
    const { ctx, notes } = context();
    await runAdapterCommand(subcommands, "setup", ctx);
    expect(notes).toHaveLength(1);
    const overview = notes[0]!.message;
    expect(overview).toContain(
      `- cursor (${cursorFile()}): cursor-tools — not loaded; adopt: /mcp-adapter setup adopt cursor`,
    );
    expect(overview).toContain("Project .mcp.json: none; create: /mcp-adapter setup create-mcp-json");
    expect(overview).toContain("- github: GitHub, repositories, issues, pull requests");
    expect(overview).toContain(`[ ] ${adapterFile()} — adapter global override`);
    expect(runtime!.listings.summaries()).toEqual([]);

    await runAdapterCommand(subcommands, "setup adopt cursor", ctx);
    expect(notes[1]).toEqual({
      message: `Imported cursor: wrote imports in ${adapterFile()}. Applied to this session.`,
      level: "info",
    });
    expect(JSON.parse(await readFile(adapterFile(), "utf8"))).toEqual({ imports: ["cursor"] });
    expect(runtime!.listings.summaries().map((s) => [s.name, s.state])).toEqual([
      ["cursor-tools", "not-connected"],
    ]);

    await runAdapterCommand(subcommands, "setup add context7 project", ctx);
    expect(notes[2]?.message).toContain(
      `Added "context7" to ${path.join(project, ".mcp.json")}. Note: works without a key`,
    );
    expect(runtime!.listings.summaries().map((s) => s.name)).toEqual(["cursor-tools", "context7"]);

    await runAdapterCommand(subcommands, "setup adopt emacs", ctx);
    expect(notes[3]).toEqual({
      message:
        'Unknown host "emacs" (one of cursor, claude-code, claude-desktop, opencode, vscode, windsurf, codex).',
      level: "warning",
    });
  });

  it("with a UI walks a menu: adopt a host after confirming, add a known server, then Done", async () => {
    await writeJson(cursorFile(), { mcpServers: { "cursor-tools": { command: "cursor-tools-mcp" } } });
    await writeJson(path.join(home, ".pi", "agent", "mcp.json"), {
      mcpServers: { "pi-native": { url: "https://native.example/mcp" } },
    });
    const subcommands = await table();
    let menus = 0;
    const { ctx, notes, dialogs } = context((dialog) => {
      if (dialog.method === "confirm") return true;
      if (dialog.title === "MCP setup") {
        menus += 1;
        const want =
          menus === 1
            ? "Adopt cursor"
            : menus === 2
              ? "Add a known server"
              : menus === 3
                ? "Copy pi-native"
                : "Done";
        return dialog.options?.find((o) => o.startsWith(want));
      }
      if (dialog.title === "Add a known MCP server")
        return dialog.options?.find((o) => o.startsWith("DeepWiki"));
      return dialog.options?.find((o) => o.startsWith("All projects"));
    });
    await runAdapterCommand(subcommands, "setup", ctx);

    expect(dialogs[0]?.options).toEqual([
      `Adopt cursor: cursor-tools (${cursorFile()})`,
      "Create .mcp.json in this project",
      "Add a known server (DeepWiki, Context7, Notion, GitHub, Chrome DevTools)",
      `Copy pi-native from Pi's ${path.join(home, ".pi", "agent", "mcp.json")}`,
      "Show config paths",
      "Done",
    ]);
    expect(dialogs[1]).toMatchObject({ method: "confirm", title: "Import cursor servers?" });
    // Once adopted, cursor is no longer offered.
    expect(dialogs[2]?.options?.[0]).toBe("Create .mcp.json in this project");
    expect(notes.map((n) => n.message)).toEqual([
      `Imported cursor: wrote imports in ${adapterFile()}. Applied to this session.`,
      `Added "deepwiki" to ${adapterFile()}. Applied to this session.`,
      `Copied pi-native into ${adapterFile()}. Applied to this session.`,
    ]);
    expect(JSON.parse(await readFile(adapterFile(), "utf8"))).toEqual({
      imports: ["cursor"],
      mcpServers: {
        deepwiki: { url: "https://mcp.deepwiki.com/mcp" },
        "pi-native": { url: "https://native.example/mcp" },
      },
    });
    expect(runtime!.listings.summaries().map((s) => s.name)).toEqual([
      "cursor-tools",
      "deepwiki",
      "pi-native",
    ]);
    expect(existsSync(path.join(project, ".mcp.json"))).toBe(false);
  });

  it("says it cannot change an inline SDK config", async () => {
    const subcommands = await table(true);
    const { ctx, notes } = context();
    await runAdapterCommand(subcommands, "setup", ctx);
    expect(notes[0]?.message).toContain("Setup is not available: this adapter runs on an inline config");
  });
});
