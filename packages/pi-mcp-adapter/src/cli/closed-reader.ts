/**
 * Output whose reader went away (`pi-mcp-adapter list | head`): writing to it
 * fails with EPIPE, which Node raises as an unhandled 'error' event — a
 * stack trace where `head` users expect silence. Such a stream is let go
 * quietly (what was not read is dropped, the command ends as it would);
 * any other stream error stays loud.
 */
const READER_GONE = new Set(["EPIPE", "ERR_STREAM_DESTROYED"]);

export function quietWhenReaderLeaves(stream: NodeJS.WritableStream): void {
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (!READER_GONE.has(error.code ?? "")) throw error;
  });
}
