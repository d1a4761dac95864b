/**
 * Applies project trust to merged servers: project-scope servers pass only
 * when approved (by definition hash), allowed by user-global
 * `projectServers: "allow"`, or confirmed by the user (which records the
 * approval). Disabled servers pass untouched, since they never connect.
 */
import type { Provenance } from "@pi-mcp-adapter/core";
import type { ConfiguredServer } from "../layers/configured-server.js";
import type { Settings } from "../layers/settings.js";
import { definitionHash } from "../merge/definition-hash.js";
import type { ConfigProblem } from "../problems.js";
import { ADMIT_ALL_PROJECT_SERVERS, type ProjectTrust } from "./project-trust.js";

export interface PendingProjectServer {
  name: string;
  hash: string;
  source: Provenance;
}

export interface AdmissionResult {
  servers: ConfiguredServer[];
  pendingProjectServers: PendingProjectServer[];
  problems: ConfigProblem[];
}

export async function admitProjectServers(
  candidates: readonly ConfiguredServer[],
  context: { project: string; trust: ProjectTrust | typeof ADMIT_ALL_PROJECT_SERVERS; settings: Settings },
): Promise<AdmissionResult> {
  const result: AdmissionResult = { servers: [], pendingProjectServers: [], problems: [] };
  for (const server of candidates) {
    if (server.scope !== "project" || server.disabled) {
      result.servers.push(server);
      continue;
    }
    const hash = definitionHash(server);
    if (await admit(server, hash, context, result.problems)) {
      result.servers.push(server);
      continue;
    }
    result.pendingProjectServers.push({ name: server.name, hash, source: server.source });
    result.problems.push({
      severity: "info",
      file: server.source.file,
      field: server.source.key,
      message: `project server "${server.name}" is not approved yet; skipped (approve it, or set settings.projectServers to "allow" in a user-level config)`,
    });
  }
  return result;
}

async function admit(
  server: ConfiguredServer,
  hash: string,
  context: { project: string; trust: ProjectTrust | typeof ADMIT_ALL_PROJECT_SERVERS; settings: Settings },
  problems: ConfigProblem[],
): Promise<boolean> {
  const { trust } = context;
  if (trust === ADMIT_ALL_PROJECT_SERVERS || context.settings.projectServers === "allow") return true;
  const key = { project: context.project, server: server.name, hash };
  if (await trust.approvals?.isApproved(key).catch(() => false)) return true;
  if (!trust.confirm) return false;
  const approved = await trust.confirm({ server, project: context.project, hash }).catch(() => false);
  if (!approved) return false;
  try {
    await trust.approvals?.approve(key);
  } catch (error) {
    problems.push({
      severity: "warning",
      file: server.source.file,
      field: server.source.key,
      message: `approval could not be saved (${(error as Error).message}); it holds for this session only`,
    });
  }
  return true;
}
