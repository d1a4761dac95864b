/**
 * What a CLI command runs with: the parsed options, project trust, and the
 * runtime, created only when a command asks for it (so `status`, `list`,
 * `init` and `setup` read files and nothing else).
 */
import { loadConfig, type PendingProjectServer, type ProjectTrust } from "@pi-mcp-adapter/config";
import type { AddServerFlags } from "@pi-mcp-adapter/config/setup";
import type { AdapterEnvironment } from "@pi-mcp-adapter/core";
import { stripControlSequences } from "@pi-mcp-adapter/output-guard";
import { type AdapterRuntime, createRuntime, headlessHost } from "@pi-mcp-adapter/runtime";
import { PACKAGE_VERSION } from "../package-version.js";
import type { ExitCode } from "./cli-error.js";
import { cliProjectTrust } from "./cli-trust.js";
import { taskProgressSink } from "./task-progress.js";

/** The options of one CLI run; flags a command does not take were rejected before it runs. */
export interface CliOptions {
  cwd: string;
  config?: string;
  server?: string;
  json: boolean;
  approveProject: boolean;
  discoverHostConfigs: boolean;
  list: boolean;
  adopt: string[];
  add: string[];
  createMcpJson: boolean;
  copyPiServers: boolean;
  project: boolean;
  yes: boolean;
  /** `add`'s flags, as config's grammar reads them. */
  addFlags: AddServerFlags;
  /** The words after `--` (for `add`: the server's command line). */
  commandLine: string[];
}

/** What a command prints: text for people, `json` for `--json` (see the README for each shape). */
export interface CliOutput {
  text: string;
  json: unknown;
  /** Exit code; default 0. */
  exitCode?: ExitCode;
}

export class CliContext {
  private created: Promise<AdapterRuntime> | undefined;
  readonly trust: ProjectTrust;

  /** `environment`: the agent dir, home, platform and clock `main` read once for this run. */
  constructor(
    readonly options: CliOptions,
    readonly environment: AdapterEnvironment,
  ) {
    this.trust = cliProjectTrust(options.approveProject, environment.agentDir);
  }

  /** The runtime (nothing connects until a command uses a server); project servers follow `trust`. */
  runtime(): Promise<AdapterRuntime> {
    this.created ??= createRuntime({
      cwd: this.options.cwd,
      configPath: this.options.config,
      trust: this.trust,
      // No UI: calls needing approval fail closed, and no interactive capability is offered to servers.
      host: headlessHost({
        notify: (message, level) => process.stderr.write(`${level}: ${stripControlSequences(message)}\n`),
        // A long call's progress, at most once a second; stdout stays the result alone.
        progress: (server, tool, text) => {
          if (text !== undefined) process.stderr.write(`progress: ${server}/${tool} ${text}\n`);
        },
        // A call that runs as an MCP task shows its status changes on stderr too.
        status: taskProgressSink((line) => process.stderr.write(line)),
      }),
      client: { name: "pi-mcp-adapter", version: PACKAGE_VERSION },
      // One command and exit: a UI tool returns its inline result, no window outlives the process.
      ui: { viewer: "none" },
      environment: this.environment,
    });
    return this.created;
  }

  /** Project servers this run leaves out because their definitions are not approved. */
  async pendingProjectServers(): Promise<PendingProjectServer[]> {
    const config = await loadConfig({
      cwd: this.options.cwd,
      configPath: this.options.config,
      trust: this.trust,
      environment: this.environment,
    });
    return config.pendingProjectServers;
  }

  async close(): Promise<void> {
    await this.created?.then((r) => r.shutdown()).catch(() => {});
  }
}
