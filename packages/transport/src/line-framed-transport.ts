/**
 * What our two stream transports (a child's stdio, a Unix socket) share:
 * newline-delimited JSON-RPC in, the SDK's transport callbacks, the
 * negotiated protocol version, and ending exactly once.
 */
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export abstract class LineFramedTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The revision agreed in initialize; the SDK client sets it, status reads it. */
  protocolVersion: string | undefined;

  protected closed = false;
  private readonly buffer = new ReadBuffer();

  abstract start(): Promise<void>;
  abstract send(message: JSONRPCMessage): Promise<void>;
  abstract close(): Promise<void>;

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  /** Delivers every complete message in the chunk; a line that is not JSON-RPC (a stray console.log) is reported, not fatal. */
  protected deliver(chunk: Buffer): void {
    this.buffer.append(chunk);
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  /** Ends the transport once; later calls do nothing. */
  protected finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.buffer.clear();
    this.onclose?.();
  }
}
