/**
 * Observers: the last stage of every call, where trace and stats attach.
 *
 * Hook contract:
 * - An observer sees one `CallRecord` per call that reached the pipeline:
 *   allowed, refused by approval, or failed. It runs after the result is
 *   built and before the result is returned to the host, synchronously, in
 *   the order observers were added.
 * - It must not throw and must not block: it cannot change the result. A
 *   throw (or a rejected promise it returns) is swallowed and counted in
 *   `ObserverList.failures`; the call's result is unaffected.
 * - The record is frozen; arguments and content are not in it (only the
 *   argument size), so an observer cannot leak or alter them.
 */
import type { ApprovalOrigin } from "@pi-mcp-adapter/approval";

/** The kinds of MCP operation the pipeline runs (what a record names). */
export type CallKind = "tool" | "resource" | "resource-template" | "prompt" | "skill";

/** The call path that asked (what observers see); the approval origin is derived from it and the kind. */
export type CallOrigin = Exclude<ApprovalOrigin, "resource" | "prompt" | "skill">;

/** How a call ended. */
export type CallOutcome =
  /** The server answered and did not flag an error. */
  | "ok"
  /** The server answered with `isError`. */
  | "error"
  /** Approval refused it; the server was never asked. */
  | "refused"
  /** It threw (transport, timeout, bad arguments): the host sees the error. */
  | "failed";

export interface CallRecord {
  server: string;
  /** The tool or prompt name, or the resource URI (expanded for templates). */
  name: string;
  kind: CallKind;
  origin: CallOrigin;
  /** Bytes of the arguments' JSON. */
  argsBytes: number;
  /** Bytes of the result's JSON as the server sent it (before the output guard); absent when there was none. */
  resultBytes?: number;
  /** Wall time from approval start to the result, in ms. */
  durationMs: number;
  outcome: CallOutcome;
  /** For `refused`: the approval code; for `failed`: the error's `code` (else `internal`); for `error`: `tool_error`. */
  errorCode?: string;
}

export type CallObserver = (record: Readonly<CallRecord>) => void;

export class ObserverList {
  private readonly observers: CallObserver[] = [];
  /** Observer calls that threw or rejected. */
  failures = 0;

  get size(): number {
    return this.observers.length;
  }

  /** Adds an observer; returns the function that removes it. */
  add(observer: CallObserver): () => void {
    this.observers.push(observer);
    return () => {
      const index = this.observers.indexOf(observer);
      if (index >= 0) this.observers.splice(index, 1);
    };
  }

  notify(record: CallRecord): void {
    const frozen = Object.freeze(record);
    for (const observer of [...this.observers]) {
      try {
        const returned: unknown = observer(frozen);
        if (returned && typeof (returned as Promise<unknown>).then === "function") {
          (returned as Promise<unknown>).then(undefined, () => {
            this.failures++;
          });
        }
      } catch {
        this.failures++;
      }
    }
  }
}
