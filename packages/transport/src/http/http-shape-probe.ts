/**
 * After an HTTP connect fails, one plain request to the URL that turns an
 * opaque SDK error into a hint a person can act on.
 */
export type FetchLike = (input: string | URL, init?: RequestInit) => Promise<Response>;

export const SHAPE_PROBE_TIMEOUT_MS = 5000;

/** A one-line hint about what the URL really is, or undefined when it looks like MCP. */
export async function probeHttpShape(
  url: string,
  options: { headers?: Record<string, string>; fetch?: FetchLike; timeoutMs?: number } = {},
): Promise<string | undefined> {
  const fetchFn = options.fetch ?? fetch;
  let response: Response;
  try {
    response = await fetchFn(url, {
      method: "POST",
      headers: {
        ...options.headers,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      signal: AbortSignal.timeout(options.timeoutMs ?? SHAPE_PROBE_TIMEOUT_MS),
    });
  } catch (error) {
    return networkHint(error);
  }
  const type = response.headers.get("content-type") ?? "";
  const body = await response.text().catch(() => "");
  const status = response.status;
  if (type.includes("text/html") || /^\s*<(!doctype|html)/i.test(body)) {
    return `endpoint returned HTML (${status}) — this URL does not appear to speak MCP`;
  }
  if (status === 404) return "404 — wrong path? MCP endpoints are often at /mcp or /sse";
  if (status === 401 || status === 403) return `${status} — the server wants authentication`;
  if (status === 405) return "405 — the endpoint does not accept POST; is this an SSE-only URL?";
  if (status >= 500) return `server error ${status}${body ? `: ${body.slice(0, 120)}` : ""}`;
  return undefined;
}

function networkHint(error: unknown): string {
  const cause = (error as { cause?: { code?: string } }).cause;
  const code = cause?.code ?? (error as { code?: string }).code;
  if (code === "ECONNREFUSED") return "connection refused — is the server running on that port?";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return "host not found — check the URL";
  if ((error as Error).name === "TimeoutError") return "no answer to a plain request either";
  return `request failed: ${(error as Error).message ?? String(error)}`;
}
