/**
 * Pi's `--mode rpc` output, parsed: one JSON message per line. Lines are split
 * on "\n" only (readline would also split inside strings holding U+2028), and
 * bytes are decoded as a stream so a character cut between chunks stays whole.
 */
export interface RpcMessage {
  type?: string;
  id?: string;
  method?: string;
  title?: string;
  message?: string;
  options?: string[];
  placeholder?: string;
  [key: string]: unknown;
}

/** The messages on `stdout`, in order; `raw` sees the decoded text as it arrives. */
export async function* rpcMessages(
  stdout: AsyncIterable<Buffer | string>,
  raw?: (text: string) => void,
): AsyncGenerator<RpcMessage> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const data of stdout) {
    const text = typeof data === "string" ? data : decoder.decode(data, { stream: true });
    raw?.(text);
    buffered += text;
    let newline = buffered.indexOf("\n");
    while (newline !== -1) {
      const line = buffered.slice(0, newline).replace(/\r$/, "");
      buffered = buffered.slice(newline + 1);
      newline = buffered.indexOf("\n");
      if (line.trim()) yield JSON.parse(line) as RpcMessage;
    }
  }
}
