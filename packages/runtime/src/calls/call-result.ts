/**
 * The one result type every runtime operation hands its host. A tool call,
 * a resource or template read, a prompt get, and the proxy tool's search /
 * describe / status answers all come back as a `CallResult`, so the proxy
 * tool, the CLI, direct tools and mcpScript read the same shape.
 */
import type { HostContent } from "@pi-mcp-adapter/output-guard";

export interface CallResult {
  /** What the model (or the CLI user) reads: text and images, already bounded by the output guard. */
  content: HostContent[];
  /** True when the server reported an error or the call was refused; the host marks the result failed. */
  isError: boolean;
  /** A tool's `structuredContent`, checked against its output schema by the transport. */
  structuredContent?: Record<string, unknown>;
  /**
   * Data for the host, not the model. Calls: `server`, `name`, `kind`; then
   * `approval` (the refusal code) when refused, or `mcpResult` (or
   * `mcpResultSummary` and `mcpResultFile`) when details were asked for.
   * The proxy tool adds `mode` and its own keys.
   */
  details: Record<string, unknown>;
}

/** A successful text answer (search, describe, status). */
export function textResult(text: string, details: Record<string, unknown>): CallResult {
  return { content: [{ type: "text", text }], isError: false, details };
}
