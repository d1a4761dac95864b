/**
 * The configured servers of a runtime, as last loaded, and their
 * connections: replace the list live, reload it from config, start the
 * eager ones, reconnect one, shut all down. Nothing here knows of tools or
 * calls; the catalog learns what a `replace` changed from its report.
 */
import type { ConfigProblem } from "@pi-mcp-adapter/config";
import type { ServerDefinition } from "@pi-mcp-adapter/core";
import {
  ConnectionManager,
  type ConnectionManagerOptions,
  type NotificationEventListener,
  type ReplaceReport,
  type ServerConnection,
  type ServerStatus,
  type StatusListener,
} from "@pi-mcp-adapter/transport";
import { RuntimeError, unknownServer } from "../errors.js";
import { RunningTasks } from "../observability/running-tasks.js";
import { type ConfigStamps, changedConfigNote } from "./config-stamps.js";
import { StderrTails } from "./stderr-tails.js";

/** What a restarted server may have changed. */
const RELISTED = ["tools/list_changed", "prompts/list_changed", "resources/list_changed"] as const;

/** Connects one server; the signal ends a connect stuck in `initialize` (reconnect, shutdown). */
export type Connect = ConnectionManagerOptions["connect"];

/** Lifecycle tuning of the connections (idle timeout, health checks, timers, …); see `ConnectionManagerOptions`. */
export type LifecycleOptions = Omit<ConnectionManagerOptions, "connect">;

/** A project server left out until the user approves it: its name and the file that defines it. */
export interface AwaitingApproval {
  name: string;
  file: string;
}

/** What a config (re)load yields: the servers and the problems found. */
export interface LoadedServers {
  servers: ServerDefinition[];
  problems: ConfigProblem[];
  /** Project servers not approved yet (not in `servers`): search says they were left out. */
  awaitingApproval?: AwaitingApproval[];
  /** The config files as this read left them (see config-stamps.ts). */
  configStamps?: ConfigStamps;
}

export interface ServerSetOptions {
  servers: ServerDefinition[];
  /** How a server is reached: a ready connect (`createRuntime` resolves secrets and OAuth in it). */
  connect: Connect;
  /** Idle timeout, back-off, timers, and `now`: the session's clock (connections, pin notices, tasks, watches). */
  lifecycle?: LifecycleOptions;
  /** Config problems of `servers` (shown in status). */
  problems?: ConfigProblem[];
  /** Project servers not approved yet, left out of `servers`. */
  awaitingApproval?: AwaitingApproval[];
  /** Reads the servers again (from config files); without it `reload()` refuses. */
  reloadConfig?: () => Promise<LoadedServers>;
  /** The config files as the session read them; left out, no file is checked for changes. */
  configStamps?: ConfigStamps;
  /** How the host applies changed config files (`Host.reloadCommand`). */
  reloadCommand?: string;
}

export class ServerSet {
  private readonly manager: ConnectionManager<ServerDefinition>;
  private readonly stderr = new StderrTails();
  private currentProblems: ConfigProblem[];
  private pending: AwaitingApproval[];
  private shuttingDown = false;
  private stamps: ConfigStamps | undefined;
  /** The MCP tasks running on each server (the call pipeline reports them). */
  readonly tasks: RunningTasks;

  constructor(private readonly options: ServerSetOptions) {
    this.tasks = new RunningTasks(options.lifecycle?.now);
    this.currentProblems = options.problems ?? [];
    this.pending = options.awaitingApproval ?? [];
    this.stamps = options.configStamps;
    // Every connection is tracked so the last one's stderr stays readable after it closes.
    this.manager = new ConnectionManager(options.servers, {
      ...options.lifecycle,
      connect: this.stderr.track(options.connect),
    });
  }

  /** Config problems of the servers as last loaded. */
  get problems(): ConfigProblem[] {
    return this.currentProblems;
  }

  /** Project servers left out of the list until the user approves them. */
  get awaitingApproval(): readonly AwaitingApproval[] {
    return this.pending;
  }

  /** Names of every configured server, disabled ones included. */
  names(): string[] {
    return this.manager.names();
  }

  definition(name: string): ServerDefinition | undefined {
    return this.manager.definition(name);
  }

  /** The definition of a configured server; throws naming the configured ones when there is none. */
  require(name: string): ServerDefinition {
    const definition = this.manager.definition(name);
    if (!definition) throw unknownServer(name, this.manager.names());
    return definition;
  }

  /** A configured, enabled server's definition, for operations that would connect it. */
  requireEnabled(name: string): ServerDefinition {
    const definition = this.require(name);
    if (definition.disabled) throw new RuntimeError("server_unavailable", `MCP server "${name}" is disabled`);
    return definition;
  }

  /** The live connection, connecting first if needed. */
  get(name: string): Promise<ServerConnection> {
    return this.manager.get(name);
  }

  /** The server's open connection, if it has one now (never connects). */
  connection(name: string): ServerConnection | undefined {
    return this.manager.connection(name);
  }

  status(): ServerStatus[] {
    return this.manager.status();
  }

  onStatus(listener: StatusListener): () => void {
    return this.manager.on("status", listener);
  }

  /**
   * Server notifications, named by server. A server whose session was renewed
   * (it restarted) is heard as having changed its tools, prompts and
   * resources, so whoever lists them on a list change lists them again.
   */
  onNotification(listener: NotificationEventListener): () => void {
    const offNotifications = this.manager.on("notification", listener);
    const offRenewed = this.manager.on("session-renewed", (server) => {
      for (const kind of RELISTED) listener(server, { kind });
    });
    return () => {
      offNotifications();
      offRenewed();
    };
  }

  /** Makes `servers` the configured list, live; the report says which servers changed and how. */
  replace(servers: ServerDefinition[]): Promise<ReplaceReport> {
    return this.manager.replace(servers);
  }

  /** Reads config again and applies it (e.g. after `/mcp-adapter disable`). */
  /** What to tell beside an unknown tool name when config files changed since they were read; else "". */
  async changedConfigNote(): Promise<string> {
    return changedConfigNote((await this.stamps?.changed()) ?? [], this.options.reloadCommand);
  }

  async reload(): Promise<ReplaceReport> {
    if (!this.options.reloadConfig) {
      throw new RuntimeError("reload_unavailable", "This MCP runtime has a fixed server list");
    }
    const { servers, problems, configStamps, awaitingApproval } = await this.options.reloadConfig();
    this.currentProblems = problems;
    this.pending = awaitingApproval ?? [];
    this.stamps = configStamps;
    return this.replace(servers);
  }

  /** Connects eager and keep-alive servers in parallel (bounded at 30 s); failures show in status. */
  start(): Promise<ServerStatus[]> {
    return this.manager.start();
  }

  /** Drops a server's connection and connects afresh. */
  async reconnect(name: string): Promise<void> {
    await this.manager.reconnect(name);
  }

  /** Tells every connected server that the client's roots changed. */
  notifyRootsChanged(): Promise<void> {
    return this.manager.notifyRootsChanged();
  }

  /** Recent stderr of a server with `debug: true` (its latest connection, even if closed); empty for others. */
  debugStderr(name: string): string[] {
    return this.manager.definition(name)?.debug === true ? this.stderr.tail(name) : [];
  }

  /** True once `shutdown` began: what fails from then on is the session ending, not a server's fault. */
  get closing(): boolean {
    return this.shuttingDown;
  }

  shutdown(): Promise<void> {
    this.shuttingDown = true;
    return this.manager.shutdown();
  }
}
