/**
 * How a stdio server is reached: the effective spawn spec (npx resolved,
 * environment merged, sandbox wrapped), then either the session's own process
 * or — when the definition is `shared` and the connect options say where the
 * daemon lives — the daemon's shared process for that exact spec, whose
 * environment is only what the definition decides (the daemon's
 * `sharedServerEnv`: a fixed inherited list plus the configured `env`), never
 * the rest of what this session inherited from its terminal. Sharing that
 * cannot be had (Windows, a daemon that will not start, a sandbox whose
 * network proxy lives in this session) falls back to an own process whose
 * status says why ("not shared: …").
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { describeError, type ServerDefinition } from "@pi-mcp-adapter/core";
import type { ConnectOptions } from "../connection/server-connection.js";
import { TransportError } from "../errors.js";
import type { ClientHandlers } from "../inbound/client-handlers.js";
import type { SpawnSpec } from "../sandbox/sandbox-spawn.js";
import { createNpxResolver, type ResolveCommand } from "../stdio/npx-resolver.js";
import { ProcessTransport } from "../stdio/process-transport.js";
import type { SharedSource } from "../stdio/shared-state.js";
import type { StderrBuffer } from "../stdio/stderr-buffer.js";
import { sharedClientKey } from "./client-key.js";

/** A started-or-startable stdio transport, its server's pid, and how it is shared (if asked to be). */
export interface StdioEndpoint {
  transport: Transport & { readonly pid: number | undefined };
  sharing?: SharedSource;
}

/** The spec to spawn for a stdio definition, exactly as it would run (secrets are already in `definition`). */
export async function stdioSpawnSpec(
  definition: ServerDefinition,
  options: ConnectOptions,
): Promise<SpawnSpec> {
  if (!definition.command) {
    throw new TransportError("connect_failed", definition.name, `Server "${definition.name}" has no command`);
  }
  const baseEnv = options.baseEnv ?? process.env;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...baseEnv, ...definition.env })) {
    if (value !== undefined) env[key] = value;
  }
  let command = definition.command;
  let args = definition.args ?? [];
  const resolve = options.resolveCommand === undefined ? defaultResolver() : options.resolveCommand;
  if (resolve) ({ command, args } = await resolve(command, args));
  let spec: SpawnSpec = { command, args, env, cwd: definition.cwd ?? options.cwd };
  if (definition.sandbox) {
    // Loaded only for servers that ask for a sandbox.
    const { sandboxSpawnSpec } = await import("../sandbox/sandbox-spawn.js");
    spec = await sandboxSpawnSpec(definition.name, definition.sandbox, spec, options.sandbox);
  }
  return spec;
}

/** The session's own process for `definition`, unless it is shared and sharing works here. */
export async function openStdioEndpoint(
  definition: ServerDefinition,
  options: ConnectOptions,
  handlers: ClientHandlers | undefined,
  stderr: StderrBuffer,
): Promise<StdioEndpoint> {
  const sharing = definition.shared === true ? options.sharing : undefined;
  let reason = sharing ? unshareableReason(definition) : undefined;
  const spec = await stdioSpawnSpec(definition, options);
  if (sharing && !reason) {
    try {
      const daemon = await import("@pi-mcp-adapter/daemon");
      const { SharedServerTransport } = await import("../stdio/shared-server-transport.js");
      const channel = await daemon.openSharedServer({
        ...sharing,
        spec: { ...spec, args: [...spec.args], env: daemon.sharedServerEnv(spec.env, definition.env) },
        serverName: definition.name,
        clientKey: await sharedClientKey(definition, handlers),
        idleTimeoutMs: definition.idleTimeoutMin ? definition.idleTimeoutMin * 60_000 : sharing.idleTimeoutMs,
      });
      const transport = new SharedServerTransport(channel);
      return { transport, sharing: transport };
    } catch (error) {
      reason = describeError(error);
    }
  }
  const transport = ownProcess(definition, spec, options, stderr);
  const fallback = reason ? `not shared: ${reason}` : undefined;
  return fallback ? { transport, sharing: { shared: () => ({ reason: fallback }) } } : { transport };
}

/** A process of this session's own for `definition` (the npx resolver and sandbox applied). */
export async function openOwnProcess(
  definition: ServerDefinition,
  options: ConnectOptions,
  stderr: StderrBuffer,
): Promise<ProcessTransport> {
  return ownProcess(definition, await stdioSpawnSpec(definition, options), options, stderr);
}

function ownProcess(
  definition: ServerDefinition,
  spec: SpawnSpec,
  options: ConnectOptions,
  stderr: StderrBuffer,
): ProcessTransport {
  return new ProcessTransport({
    ...spec,
    onStderr: (chunk) => stderr.append(chunk),
    killGraceMs: options.killGraceMs,
    spawn: options.spawn,
    server: definition.name,
    maxFrameBytes: options.maxFrameBytes,
  });
}

/** Why a shared definition must still run in this session, if it must. */
function unshareableReason(definition: ServerDefinition): string | undefined {
  const sandbox = definition.sandbox;
  if (typeof sandbox === "object" && sandbox.network?.allow?.length) {
    return "its sandbox's network proxy runs inside this session";
  }
  return undefined;
}

let sharedResolver: ResolveCommand | undefined;
function defaultResolver(): ResolveCommand {
  sharedResolver ??= createNpxResolver();
  return sharedResolver;
}
