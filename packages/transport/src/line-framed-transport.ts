/**
 * What our two stream transports (a child's stdio, a Unix socket) share:
 * newline-delimited JSON-RPC in, the SDK's transport callbacks, the
 * negotiated protocol version, and ending exactly once.
 *
 * The framing is our own rather than the SDK's `ReadBuffer`: that one parses
 * every message with the SDK's zod schema for all of JSON-RPC (which the SDK
 * client's protocol layer checks again), and importing it builds every schema
 * of the protocol when this package loads.
 */
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Same bound as the SDK's stdio transport: a server that never ends a line cannot grow memory forever. */
const MAX_BUFFERED_BYTES = 10 * 1024 * 1024;

export abstract class LineFramedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The revision agreed in initialize; the SDK client sets it, status reads it. */
  protocolVersion: string | undefined;

  protected closed = false;
  private buffer: Buffer | undefined;

  abstract start(): Promise<void>;
  abstract send(message: JSONRPCMessage): Promise<void>;
  abstract close(): Promise<void>;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** One message as it goes on the wire. */
  protected frame(message: JSONRPCMessage): string {
    return `${JSON.stringify(message)}\n`;
  }

  /** Delivers every complete message in the chunk; a line that is not JSON-RPC (a stray console.log) is reported, not fatal. */
  protected deliver(chunk: Buffer): void {
    if ((this.buffer?.length ?? 0) + chunk.length > MAX_BUFFERED_BYTES) {
      this.buffer = undefined;
      this.onerror?.(
        new Error(`a message exceeded ${MAX_BUFFERED_BYTES} bytes without a line break; dropped`),
      );
      return;
    }
    let buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
    for (let end = buffer.indexOf(10); end !== -1; end = buffer.indexOf(10)) {
      const line = buffer.toString("utf8", 0, end).replace(/\r$/, "");
      buffer = buffer.subarray(end + 1);
      let message: JSONRPCMessage;
      try {
        message = parseMessage(line);
      } catch (error) {
        this.onerror?.(error as Error);
        continue;
      }
      this.onmessage?.(message);
      if (this.closed) return; // a handler closed us: the rest is not delivered
    }
    this.buffer = buffer.length ? buffer : undefined;
  }

  /** Ends the transport once; later calls do nothing. */
  protected finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer = undefined;
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
