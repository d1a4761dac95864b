/**
 * Servers other extensions register for the session, gathered for the
 * runtime's config (`RuntimeSource.registrations`, a config source below
 * every file):
 *
 * - Pi 1.x `pi.registerMcpServer()` — only while Pi's built-in MCP is not
 *   loaded (`-builtin:mcp`, `--no-extensions -e …`); when it is, its
 *   registrations are the built-in's to connect.
 * - the event-bus contract `pi-mcp-adapter:runtime-register:v1`, on both Pi
 *   lines: `{ version: 1, name, definition }`, answered at once on
 *   `request.result` with `{ ok: true, registration: { dispose() } }` or
 *   `{ ok: false, error }`.
 *
 * A change calls `onChange`, which applies the new list to the live runtime.
 */
import type { ExtensionAPI } from "@mariozechner/pi-coding-agent";
import { convertRegistration, type ExtensionServerRegistration, formatProblem } from "@pi-mcp-adapter/config";

/** The event other extensions emit to register a server with the adapter (both Pi lines). */
export const RUNTIME_REGISTER_EVENT = "pi-mcp-adapter:runtime-register:v1";

/** What a `RUNTIME_REGISTER_EVENT` request carries, and the answer written onto it. */
export interface RuntimeRegisterRequest {
  version: 1;
  name: string;
  /** An `mcpServers` entry. */
  definition: Record<string, unknown>;
  result?: { ok: true; registration: { dispose(): Promise<void> } } | { ok: false; error: Error };
}

/** A server Pi 1.x reports as registered by an extension. */
interface PiRegisteredServer {
  name: string;
  config: unknown;
  extensionPath?: string;
}

/** The Pi 1.x members this module uses (the older line's types lack them). */
interface PiMcpServerApi {
  registerMcpServer?: unknown;
  getMcpServers?: () => PiRegisteredServer[];
  getCommands?: () => { name: string; sourceInfo?: { path?: string } }[];
  on(event: "mcp_servers_change", handler: (event: { servers: PiRegisteredServer[] }) => unknown): unknown;
}

/** Pi 1.x ships built-in MCP and exposes `registerMcpServer`; the 0.7x line has neither. */
export function hasNativeMcp(pi: ExtensionAPI): boolean {
  return typeof (pi as unknown as PiMcpServerApi).registerMcpServer === "function";
}

/** Whether Pi's built-in MCP extension is loaded in this session (its commands come from `builtin:mcp`). */
function builtinMcpLoaded(pi: ExtensionAPI): boolean {
  try {
    const commands = (pi as unknown as PiMcpServerApi).getCommands?.() ?? [];
    return commands.some((c) => c.sourceInfo?.path === "builtin:mcp");
  } catch {
    return false;
  }
}

export class ServerRegistrations {
  private fromPi: ExtensionServerRegistration[] = [];
  private readonly fromBus = new Map<string, ExtensionServerRegistration>();
  /** True once a session started without Pi's built-in MCP: Pi's registrations are then ours to connect. */
  private servePi = false;

  /** `onChange` applies the changed list; what it returns is awaited by `dispose()`. */
  constructor(
    private readonly pi: ExtensionAPI,
    private readonly onChange: () => Promise<void>,
  ) {
    pi.events.on(RUNTIME_REGISTER_EVENT, (data) => this.answer(data));
    if (hasNativeMcp(pi)) {
      (pi as unknown as PiMcpServerApi).on("mcp_servers_change", (event) => {
        if (!this.servePi) return;
        this.fromPi = fromPiServers(event.servers);
        return this.onChange();
      });
    }
  }

  /** Every registration, Pi's first, in registration order. */
  list(): ExtensionServerRegistration[] {
    return [...this.fromPi, ...this.fromBus.values()];
  }

  /** A session starts: decide whether Pi's registrations are ours, and read those made while extensions loaded. */
  sessionStarted(): void {
    this.servePi = hasNativeMcp(this.pi) && !builtinMcpLoaded(this.pi);
    const api = this.pi as unknown as PiMcpServerApi;
    this.fromPi = this.servePi ? fromPiServers(api.getMcpServers?.() ?? []) : [];
  }

  /** Answers one event-bus request on `request.result`; the first adapter to answer wins. */
  private answer(data: unknown): void {
    if (data === null || typeof data !== "object") return;
    const request = data as Partial<RuntimeRegisterRequest>;
    if (request.result !== undefined) return;
    const refused = this.refusal(request);
    if (refused !== undefined) {
      request.result = { ok: false, error: new Error(`${RUNTIME_REGISTER_EVENT}: ${refused}`) };
      return;
    }
    const name = request.name as string;
    const registration: ExtensionServerRegistration = { name, config: request.definition, via: "event-bus" };
    this.fromBus.set(name, registration);
    void this.onChange();
    request.result = {
      ok: true,
      registration: {
        dispose: async () => {
          if (this.fromBus.get(name) !== registration) return;
          this.fromBus.delete(name);
          await this.onChange();
        },
      },
    };
  }

  /** Why a request cannot be registered (checked like a config entry), or undefined when it can. */
  private refusal(request: Partial<RuntimeRegisterRequest>): string | undefined {
    if (request.version !== 1) return `unsupported version ${JSON.stringify(request.version)} (expected 1)`;
    const name = request.name;
    if (typeof name !== "string" || name.trim() === "") return "name must be a non-empty string";
    if (this.fromBus.has(name) || this.fromPi.some((r) => r.name === name)) {
      return `MCP server "${name}" is already registered by another extension`;
    }
    const checked = convertRegistration({ name, config: request.definition, via: "event-bus" });
    return checked.server ? undefined : checked.problems.map(formatProblem).join("; ");
  }
}

function fromPiServers(servers: readonly PiRegisteredServer[]): ExtensionServerRegistration[] {
  return servers.map((s) => ({
    name: s.name,
    config: s.config,
    via: "pi" as const,
    ...(s.extensionPath ? { registeredBy: s.extensionPath } : {}),
  }));
}
