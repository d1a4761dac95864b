/**
 * The one result type every call hands its host. A tool call, a resource or
 * template read and a prompt get all come back as a `CallResult`, so the
 * proxy tool, the CLI, direct tools and mcpScript read the same shape; its
 * `details` say, typed, what ran and how it ended.
 */
import type { ToolCallResult } from "@pi-mcp-adapter/core";
import type { HostContent, ResultSummary } from "@pi-mcp-adapter/output-guard";
import type { CallKind } from "../observability/call-observers.js";

/** Data for the host, not the model: what was called, and how it ended when not plainly. */
export interface CallDetails {
  server: string;
  /** The tool or prompt name, or the URI read (templates expanded). */
  name: string;
  kind: CallKind;
  /** Approval refused the call: the server was never asked. */
  approval?: "denied" | "approval_required" | "tool_changed";
  /** The server asked for a browser step first (`-32042`); the model retries after it. */
  error?: "url_elicitation_required";
  /** The raw MCP result, when details were asked for and it is small. */
  mcpResult?: ToolCallResult;
  /** A large raw result: its summary, and the private file that holds it (or why none could be written). */
  mcpResultSummary?: ResultSummary;
  mcpResultFile?: string;
  /** `text`: the result was text only and `mcpResultFile` is its text spill file; else raw JSON. */
  mcpResultFileFormat?: "json" | "text";
  mcpResultFileError?: string;
  /** Direct tools with `directToolResultDetails: "bounded"`: the tool's structured result. */
  structuredContent?: Record<string, unknown>;
}

/** What a host shows: bounded content, the error flag, and typed details of type `D`. */
export interface HostOutcome<D> {
  /** What the model (or the CLI user) reads: text and images, already bounded by the output guard. */
  content: HostContent[];
  /** True when the server reported an error or the call was refused; the host marks the result failed. */
  isError: boolean;
  /** A tool's `structuredContent`, checked against its output schema by the transport. */
  structuredContent?: Record<string, unknown>;
  details: D;
}

export type CallResult = HostOutcome<CallDetails>;

/** A successful text answer (search, describe, status). */
export function textResult<D>(text: string, details: D): HostOutcome<D> {
  return { content: [{ type: "text", text }], isError: false, details };
}
