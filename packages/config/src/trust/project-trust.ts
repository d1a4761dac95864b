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
import { isAbsolute, relative } from "node:path";
import type { ConfiguredServer } from "../layers/configured-server.js";
import { isSecretCommand } from "../secrets/secret-command.js";
import type { ApprovalStore } from "./approval-store.js";

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

/**
 * What the user reviews before approving a project server: where it is
 * defined, the exact command line (or address) it would start, and every
 * `!command` secret it would run (the command text, never its output). Env
 * variable names are listed, never their values.
 */
export function describeProjectServer({ server, project }: ProjectServerApprovalRequest): string[] {
  const quote = (word: string) => (/^[\w@%+=:,./-]+$/.test(word) ? word : JSON.stringify(word));
  // A project file may only override a server defined elsewhere: name the project file that changes it.
  const inProject = (file: string) =>
    !relative(project, file).startsWith("..") && !isAbsolute(relative(project, file));
  const projectLayers = [...new Set(server.layers.map((layer) => layer.file))].filter(
    (file) => file !== server.source.file && inProject(file),
  );
  const lines = [
    inProject(server.source.file) || projectLayers.length === 0
      ? `The project ${project} defines the MCP server "${server.name}" in ${server.source.file}.`
      : `The project ${project} changes the MCP server "${server.name}" (defined in ${server.source.file}) in ${projectLayers.join(", ")}.`,
  ];
  if (server.transport === "stdio") {
    lines.push(`runs: ${[server.command ?? "", ...(server.args ?? [])].map(quote).join(" ")}`);
    if (server.cwd) lines.push(`in: ${server.cwd}`);
    const env = Object.keys(server.env ?? {});
    if (env.length) lines.push(`with env: ${env.join(", ")}`);
  } else lines.push(`connects to: ${server.url ?? server.socket ?? ""}`);
  // Every `!command` runs on connect (or login): the approval shows each one, never what it prints.
  for (const [field, command] of secretCommands(server)) lines.push(`runs for ${field}: ${command}`);
  return lines;
}

/** The `!command` values of a definition, by field (`headers.Authorization`, `env.TOKEN`, …). */
function secretCommands(server: ConfiguredServer): [string, string][] {
  const out: [string, string][] = [];
  const add = (field: string, value: unknown) => {
    if (typeof value === "string" && isSecretCommand(value)) out.push([field, value.slice(1).trim()]);
  };
  for (const [key, value] of Object.entries(server.env ?? {})) add(`env.${key}`, value);
  for (const [key, value] of Object.entries(server.headers ?? {})) add(`headers.${key}`, value);
  add("bearerToken", server.bearerToken);
  if (server.oauth) add("oauth.clientSecret", server.oauth.clientSecret);
  const signer = server.requestHeadersCommand;
  if (signer) out.push(["requestHeadersCommand", [signer.command, ...(signer.args ?? [])].join(" ")]);
  return out;
}
