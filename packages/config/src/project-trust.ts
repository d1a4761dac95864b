/**
 * Admission of project servers (`.mcp.json`, `.pi/mcp-adapter.json`, and host
 * files inside the project). The host fills `ProjectTrust`; config applies:
 *
 * 1. `trusted === false`: project files are not read at all.
 * 2. Otherwise each project server is admitted when its effective definition
 *    was approved (by hash), or user-global `projectServers: "allow"` is set,
 *    or `confirm` (a dialog, where there is a UI) says yes — which records
 *    the approval.
 * 3. Everything else is skipped with an `info` problem naming the server.
 */
import type { ApprovalStore } from "./approval-store.js";
import type { ConfiguredServer } from "./configured-server.js";

export interface ProjectServerApprovalRequest {
  server: ConfiguredServer;
  /** The project directory. */
  project: string;
  hash: string;
}

export interface ProjectTrust {
  /** The host's answer; `undefined` when the host has no trust feature (Pi 0.7x). */
  trusted: boolean | undefined;
  /** Where approvals are remembered. Without one nothing is remembered. */
  approvals?: ApprovalStore;
  /** Asks the user; leave out in headless sessions. May throw (treated as "no"). */
  confirm?: (request: ProjectServerApprovalRequest) => Promise<boolean>;
}

/** For callers that are themselves the user's explicit choice of project (a CLI run, tests). */
export const ADMIT_ALL_PROJECT_SERVERS = "admit-all" as const;
