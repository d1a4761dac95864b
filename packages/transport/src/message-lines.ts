/**
 * Newline-delimited JSON-RPC over a byte stream (a child's stdout, a Unix
 * socket): what both our stream transports do with incoming bytes.
 */
import { ReadBuffer } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

export class MessageLines {
  private readonly buffer = new ReadBuffer();

  /**
   * Takes a chunk and delivers every complete message in it. A line that is
   * not JSON-RPC (a stray console.log) is reported to `fail`, never fatal.
   */
  receive(chunk: Buffer, deliver: (message: JSONRPCMessage) => void, fail: (error: Error) => void): void {
    this.buffer.append(chunk);
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        deliver(message);
      } catch (error) {
        fail(error as Error);
      }
    }
  }

  clear(): void {
    this.buffer.clear();
  }
}
