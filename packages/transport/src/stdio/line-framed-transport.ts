/**
 * What our two stream transports (a child's stdio, a Unix socket) share:
 * newline-delimited JSON-RPC in, the SDK's transport callbacks, the
 * negotiated protocol version, and ending exactly once.
 *
 * The framing is our own rather than the SDK's `ReadBuffer`: that one parses
 * every message with the SDK's zod schema for all of JSON-RPC (which the SDK
 * client's protocol layer checks again), and importing it builds every schema
 * of the protocol when this package loads.
 *
 * A message is bounded (`maxFrameBytes`, 64 MiB by default, so large results
 * reach the output guard as they do over HTTP). A longer one is skipped
 * without holding it in memory, and the request it answered fails at once
 * with its size — or, when its id cannot be read, every request waiting on
 * this transport does. The transport stays usable.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { LineSplitter, type OversizedLine } from "@pi-mcp-adapter/core";

/** The default bound on one message from a stdio or socket server. */
export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** Where a JSON-RPC message's `id` sits: the SDKs write it last, others first. */
const ID_PATTERN = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)/g;

export interface FrameOptions {
  /** The server's name, for the error a too-large message gives. */
  server?: string;
  /** The longest message accepted, in bytes. Default `DEFAULT_MAX_FRAME_BYTES` (64 MiB). */
  maxFrameBytes?: number;
}

export abstract class LineFramedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The revision agreed in initialize; the SDK client sets it, status reads it. */
  protocolVersion: string | undefined;

  protected closed = false;
  private readonly splitter: LineSplitter;
  private readonly maxFrameBytes: number;
  /** Ids of requests sent and not answered yet (a too-large answer fails them). */
  private readonly pending = new Set<string | number>();

  constructor(private readonly frameOptions: FrameOptions = {}) {
    this.maxFrameBytes = frameOptions.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.splitter = new LineSplitter(this.maxFrameBytes);
  }

  abstract start(): Promise<void>;
  abstract send(message: JSONRPCMessage): Promise<void>;
  abstract close(): Promise<void>;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** One message as it goes on the wire. */
  protected frame(message: JSONRPCMessage): string {
    if ("method" in message && "id" in message) this.pending.add(message.id);
    else if ("method" in message && message.method === "notifications/cancelled") {
      this.pending.delete((message.params as { requestId?: string | number } | undefined)?.requestId ?? "");
    }
    return `${JSON.stringify(message)}\n`;
  }

  /** Delivers every complete message in the chunk; a line that is not JSON-RPC (a stray console.log) is reported, not fatal. */
  protected deliver(chunk: Buffer): void {
    this.splitter.push(chunk, {
      line: (line) => {
        let message: JSONRPCMessage;
        try {
          message = parseMessage(line);
        } catch (error) {
          this.onerror?.(error as Error);
          return;
        }
        if ("id" in message && !("method" in message)) this.pending.delete(message.id ?? "");
        this.onmessage?.(message);
      },
      oversized: (line) => this.refuse(line),
      open: () => !this.closed,
    });
  }

  /** Fails the request a too-large answer was for (all waiting ones, if its id cannot be read). */
  private refuse(line: OversizedLine): void {
    const server = this.frameOptions.server ? ` from server "${this.frameOptions.server}"` : "";
    const message = `answer too large: ${mebibytes(line.bytes)}${server} (limit ${mebibytes(this.maxFrameBytes)})`;
    this.onerror?.(new Error(message));
    const id = readId(line.tail, "last") ?? readId(line.head, "first");
    const ids = id !== undefined && this.pending.has(id) ? [id] : [...this.pending];
    for (const failed of ids) {
      this.pending.delete(failed);
      this.onmessage?.({ jsonrpc: "2.0", id: failed, error: { code: -32603, message } });
      if (this.closed) return;
    }
  }

  /** Ends the transport once; later calls do nothing. */
  protected finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.splitter.reset();
    this.pending.clear();
    this.onclose?.();
  }
}

/** JSON with the JSON-RPC 2.0 envelope; the SDK client checks the rest of each message's shape. */
function parseMessage(line: string): JSONRPCMessage {
  const value: unknown = JSON.parse(line);
  if (typeof value !== "object" || value === null || (value as { jsonrpc?: unknown }).jsonrpc !== "2.0") {
    throw new Error(`not a JSON-RPC 2.0 message: ${line.slice(0, 200)}`);
  }
  return value as JSONRPCMessage;
}

function readId(text: string, which: "first" | "last"): string | number | undefined {
  const matches = [...text.matchAll(ID_PATTERN)];
  const match = (which === "first" ? matches[0] : matches.at(-1))?.[1];
  if (match === undefined) return undefined;
  return match.startsWith('"') ? (JSON.parse(match) as string) : Number(match);
}

/** Bytes as MiB for messages: `70 MiB`, `0.5 MiB`. */
function mebibytes(bytes: number): string {
  return `${Number((bytes / (1024 * 1024)).toFixed(1))} MiB`;
}
