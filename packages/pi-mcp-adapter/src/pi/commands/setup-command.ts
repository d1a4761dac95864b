/**
 * `/mcp-adapter setup`: adopt other hosts' configs (writes `imports`), create
 * a minimal `.mcp.json`, add a known server, copy servers from Pi's own
 * `mcp.json`, and show every config path. With a UI it is a menu of
 * select/confirm dialogs; without one it prints the same overview, and its
 * words do the actions (`setup adopt cursor`, `setup add deepwiki project`,
 * `setup create-mcp-json`, `setup copy-pi-servers`). Only the adapter's own
 * files and a new `.mcp.json` are written, and changes apply to the running
 * session at once.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";
import { HOST_IDS, isHostId } from "@pi-mcp-adapter/config";
import type {
  CuratedServer,
  HostConfigInfo,
  PiNativeConfigInfo,
  SetupCommands,
  SetupOverview,
} from "@pi-mcp-adapter/config/setup";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import type { AdapterRuntime } from "@pi-mcp-adapter/runtime";
import { hostProjectTrust } from "../host/project-trust-bridge.js";
import type { AdapterSubcommand } from "./adapter-command.js";

export interface SetupCommandOptions {
  runtimeFor(ctx: ExtensionContext): Promise<AdapterRuntime>;
  /** The `--mcp-config` file, if any (shown among the config paths). */
  configPath(): string | undefined;
  /** An SDK inline config is an isolated snapshot: setup cannot change it. */
  inlineConfig: boolean;
  /** The host's environment (agent dir, home, platform); default this process's. */
  environment?: AdapterEnvironment;
}

const PI_SETUP_COMMANDS: SetupCommands = {
  adopt: (host) => `/mcp-adapter setup adopt ${host}`,
  add: (id) => `/mcp-adapter setup add ${id} [project]`,
  createMcpJson: "/mcp-adapter setup create-mcp-json",
  copyPiServers: () => "/mcp-adapter setup copy-pi-servers",
};

const DONE = "Done";
const SHOW_PATHS = "Show config paths";
const CREATE = "Create .mcp.json in this project";
const ADD_KNOWN = "Add a known server (DeepWiki, Context7, Notion, GitHub, Chrome DevTools)";

export function setupSubcommand(options: SetupCommandOptions): AdapterSubcommand {
  return {
    name: "setup",
    args: "[adopt <host> | add <server> [project] | create-mcp-json | copy-pi-servers]",
    summary: "adopt other hosts' configs, add known servers, create .mcp.json, see config paths",
    run: async (words, ctx) => {
      if (options.inlineConfig) {
        ctx.ui.notify(
          "Setup is not available: this adapter runs on an inline config (createMcpAdapter({ config })), an isolated snapshot that no file changes. Edit that object instead.",
          "warning",
        );
        return;
      }
      // Config's setup code loads when the command runs, not with the extension.
      const api = await import("@pi-mcp-adapter/config/setup");
      const setup = new SetupSession(options, ctx, api);
      if (words.length) return setup.runWords(words);
      if (!ctx.hasUI) {
        ctx.ui.notify(api.formatSetupOverview(await setup.overview(), PI_SETUP_COMMANDS), "info");
        return;
      }
      await setup.menu();
    },
  };
}

/** `@pi-mcp-adapter/config/setup`, loaded when the command runs. */
type SetupApi = typeof import("@pi-mcp-adapter/config/setup");

class SetupSession {
  constructor(
    private readonly options: SetupCommandOptions,
    private readonly ctx: ExtensionContext,
    private readonly api: SetupApi,
  ) {}

  /** Pi 1.x's trust answer: in an untrusted project, project files are neither read nor written. */
  private get projectTrusted(): boolean {
    return hostProjectTrust(this.ctx) !== false;
  }

  overview(): Promise<SetupOverview> {
    return this.api.readSetupOverview({
      cwd: this.ctx.cwd,
      configPath: this.options.configPath(),
      readProjectFiles: this.projectTrusted,
      environment: this.options.environment,
    });
  }

  async runWords([action, ...rest]: string[]): Promise<void> {
    const overview = await this.overview();
    const usage = `Usage: /mcp-adapter setup [adopt <host> | add <server> [project] | create-mcp-json | copy-pi-servers]`;
    if (action === "adopt" && rest.length === 1 && rest[0]) {
      const host = rest[0].toLowerCase();
      if (!isHostId(host)) {
        this.ctx.ui.notify(`Unknown host "${rest[0]}" (one of ${HOST_IDS.join(", ")}).`, "warning");
        return;
      }
      const found = overview.hosts.find((h) => h.host === host);
      return this.adopt(overview, found ?? { host, file: "", scope: "user", servers: [], active: false });
    }
    if (action === "add" && rest[0] && rest.length <= 2 && (rest[1] === undefined || rest[1] === "project")) {
      const server = this.api.findCuratedServer(rest[0]);
      if (!server) {
        const known = this.api.CURATED_SERVERS.map((s) => s.id).join(", ");
        this.ctx.ui.notify(`Unknown server "${rest[0]}" (one of ${known}).`, "warning");
        return;
      }
      return this.addKnown(overview, server, rest[1] === "project");
    }
    if (action === "create-mcp-json" && rest.length === 0) return this.createMcpJson(overview);
    if (action === "copy-pi-servers" && rest.length === 0) {
      if (!overview.piNative.length)
        this.ctx.ui.notify("Pi's own mcp.json does not exist here; nothing to copy.", "info");
      for (const native of overview.piNative) await this.copy(native);
      return;
    }
    this.ctx.ui.notify(usage, "warning");
  }

  /** The dialog loop: one action per round, until Done or Escape. */
  async menu(): Promise<void> {
    for (;;) {
      const overview = await this.overview();
      const choices = new Map<string, () => Promise<void>>();
      for (const host of overview.hosts) {
        if (host.active || host.servers.length === 0) continue;
        choices.set(`Adopt ${host.host}: ${host.servers.join(", ")} (${host.file})`, () =>
          this.adopt(overview, host),
        );
      }
      if (!overview.projectConfigExists && this.projectTrusted)
        choices.set(CREATE, () => this.createMcpJson(overview));
      choices.set(ADD_KNOWN, () => this.pickKnown(overview));
      for (const native of overview.piNative) {
        const names = Object.keys(native.servers);
        if (!names.length) continue;
        choices.set(`Copy ${names.join(", ")} from Pi's ${native.file}`, () => this.copy(native, true));
      }
      choices.set(SHOW_PATHS, async () =>
        this.ctx.ui.notify(this.api.formatConfigPaths(overview.paths), "info"),
      );
      choices.set(DONE, async () => {});
      const choice = await this.ctx.ui.select("MCP setup", [...choices.keys()]);
      if (choice === undefined || choice === DONE) return;
      await choices.get(choice)?.();
    }
  }

  private async adopt(overview: SetupOverview, host: HostConfigInfo): Promise<void> {
    if (this.ctx.hasUI && host.file) {
      const ok = await this.ctx.ui.confirm(
        `Import ${host.host} servers?`,
        `Adds "${host.host}" to imports in ${overview.agentConfigFile}, so ${host.servers.join(", ") || "its servers"} load from ${host.file}. That file is not changed.`,
      );
      if (!ok) return;
    }
    const result = await this.api.adoptHostImports(overview.agentConfigFile, [host.host]);
    await this.apply(
      result.changed
        ? `Imported ${host.host}: wrote imports in ${result.file}.${host.file ? "" : ` No ${host.host} config was found yet; it loads once one exists.`}`
        : `${result.file} already imports ${host.host}.`,
      result.changed,
    );
  }

  private async createMcpJson(overview: SetupOverview): Promise<void> {
    if (!this.projectTrusted) return this.untrusted();
    const result = await this.api.createProjectConfig(overview.projectConfigFile);
    this.ctx.ui.notify(
      result.created
        ? `Created ${result.file} with an empty mcpServers; add servers there (or with "${ADD_KNOWN}").`
        : `${result.file} already exists; left as it is.`,
      "info",
    );
  }

  private async pickKnown(overview: SetupOverview): Promise<void> {
    const labels = this.api.CURATED_SERVERS.map((s) => `${s.title} — ${s.summary}`);
    const picked = await this.ctx.ui.select("Add a known MCP server", labels);
    const server = this.api.CURATED_SERVERS[labels.indexOf(picked ?? "")];
    if (!server) return;
    const project = `This project (${overview.projectConfigFile})`;
    const global = `All projects (${overview.agentConfigFile})`;
    const where = await this.ctx.ui.select(
      `Add ${server.title} to`,
      this.projectTrusted ? [project, global] : [global],
    );
    if (where === undefined) return;
    await this.addKnown(overview, server, where === project);
  }

  private async addKnown(overview: SetupOverview, server: CuratedServer, inProject: boolean): Promise<void> {
    if (inProject && !this.projectTrusted) return this.untrusted();
    const file = inProject ? overview.projectConfigFile : overview.agentConfigFile;
    const result = await this.api.addServers(file, { [server.id]: server.entry });
    const note = server.note ? ` Note: ${server.note}.` : "";
    await this.apply(
      result.changed
        ? `Added "${server.id}" to ${file}.${note}`
        : `"${server.id}" is already defined in ${file}; its definition was kept.`,
      result.changed,
    );
  }

  private async copy(native: PiNativeConfigInfo, ask = false): Promise<void> {
    const names = Object.keys(native.servers);
    if (ask) {
      const ok = await this.ctx.ui.confirm(
        "Copy servers from Pi's mcp.json?",
        `Copies ${names.join(", ")} from ${native.file} into ${native.target} (whole definitions, including any credentials written in them). Pi's file is not changed, and the adapter never reads it for connections.`,
      );
      if (!ok) return;
    }
    const result = await this.api.addServers(native.target, native.servers);
    const kept = result.kept.length ? ` Kept the existing definition of ${result.kept.join(", ")}.` : "";
    await this.apply(
      result.changed
        ? `Copied ${result.added.join(", ")} into ${native.target}.${kept}`
        : `Nothing to copy.${kept}`,
      result.changed,
    );
  }

  /** Reloads the session's config so the change applies now, then tells the user. */
  private async apply(message: string, changed = true): Promise<void> {
    if (!changed) {
      this.ctx.ui.notify(message, "info");
      return;
    }
    const runtime = await this.options.runtimeFor(this.ctx);
    await runtime.reload();
    this.ctx.ui.notify(`${message} Applied to this session.`, "info");
  }

  private untrusted(): void {
    this.ctx.ui.notify(
      "This project is not trusted, so setup does not write its files (use Pi's /trust first).",
      "warning",
    );
  }
}
