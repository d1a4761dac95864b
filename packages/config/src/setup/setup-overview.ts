/**
 * What setup shows: every config path in precedence order and which exist,
 * the other hosts' configs found (with their servers and whether they are
 * imported already), and Pi's own `mcp.json` files with the servers setup can
 * copy. Reading it runs nothing and resolves no secret; Pi's files are read
 * only to list and copy definitions, never to connect.
 */

import path from "node:path";
import {
  AGENT_CONFIG_FILE,
  type ConfigEnvironment,
  defaultConfigEnvironment,
  expandHome,
  PROJECT_CONFIG_FILE,
  PROJECT_OVERRIDE_FILE,
  userConfigFiles,
} from "../files/config-sources.js";
import { fileExists } from "../files/file-exists.js";
import { readJsonFile } from "../files/read-json-file.js";
import { extractHostEntries } from "../hosts/host-formats.js";
import { HOST_IDS, type HostId, hostConfigFiles, isHostId } from "../hosts/host-locations.js";
import { readHostConfigs } from "../hosts/load-host-configs.js";
import { isPlainObject } from "../layers/config-layer.js";
import type { ConfigProblem } from "../problems.js";

export interface ConfigPathInfo {
  file: string;
  /** What the file is, e.g. "user-global shared" or "cursor (import)". */
  role: string;
  /** `import` files load only when imported; `pi-native` files are never read for connections. */
  kind: "import" | "user" | "project" | "explicit" | "pi-native";
  exists: boolean;
}

export interface HostConfigInfo {
  host: HostId;
  file: string;
  scope: "user" | "project";
  servers: string[];
  /** Loaded now: named in `imports` of a user or project file, or `hostConfigDiscovery` is "on". */
  active: boolean;
}

export interface PiNativeConfigInfo {
  /** Pi's own `mcp.json` (agent dir or the project's `.pi/`). */
  file: string;
  /** The adapter file its servers are copied into (same scope). */
  target: string;
  /** Server definitions, as they would be copied (adapter shape). */
  servers: Record<string, Record<string, unknown>>;
}

export interface SetupOverview {
  cwd: string;
  /** The adapter's file in Pi's agent dir: where setup and init write imports. */
  agentConfigFile: string;
  /** The project's shared `.mcp.json`. */
  projectConfigFile: string;
  projectConfigExists: boolean;
  /** Lowest precedence first; host files come first because they sit below every other source. */
  paths: ConfigPathInfo[];
  hosts: HostConfigInfo[];
  piNative: PiNativeConfigInfo[];
  /** Host names in `imports` of the agent dir file. */
  imports: HostId[];
  hostConfigDiscovery: "off" | "on" | "prompt";
  problems: ConfigProblem[];
}

export interface SetupOverviewOptions {
  cwd: string;
  configPath?: string;
  environment?: Partial<ConfigEnvironment>;
  /** False in an untrusted project: project-scope host files and `.pi/mcp.json` are left unread. */
  readProjectFiles?: boolean;
}

export async function readSetupOverview(options: SetupOverviewOptions): Promise<SetupOverview> {
  const environment = defaultConfigEnvironment(options.environment);
  const { cwd } = options;
  const readProjectFiles = options.readProjectFiles !== false;
  const agentConfigFile = path.join(environment.agentDir, AGENT_CONFIG_FILE);
  const projectConfigFile = path.join(cwd, PROJECT_CONFIG_FILE);
  const problems: ConfigProblem[] = [];

  const own = await readOwnFile(agentConfigFile, problems);
  const projectOverride = readProjectFiles
    ? await readOwnFile(path.join(cwd, PROJECT_OVERRIDE_FILE), problems)
    : {};
  const imports = [...(own.imports ?? [])].filter(isHostId);
  const projectImports = (projectOverride.imports ?? []).filter(isHostId);
  const discovery = own.discovery ?? "off";

  const read = await readHostConfigs(HOST_IDS, environment, cwd, { readProjectFiles });
  for (const layer of read.layers) problems.push(...layer.problems.filter((p) => p.severity === "error"));
  const hosts = read.detected.map((found) => ({
    ...found,
    active: discovery === "on" || imports.includes(found.host) || projectImports.includes(found.host),
  }));

  const paths: ConfigPathInfo[] = [];
  const add = async (file: string, role: string, kind: ConfigPathInfo["kind"]) =>
    paths.push({ file, role, kind, exists: await fileExists(file) });
  for (const host of HOST_IDS) {
    for (const candidate of hostConfigFiles(host, environment, cwd)) {
      if (candidate.scope === "project" && !readProjectFiles) continue;
      await add(candidate.file, `${host} (${candidate.scope}, loaded only when imported)`, "import");
    }
  }
  const userRoles = [
    "user-global shared",
    "user-global tool-agnostic",
    "user-global tool-agnostic",
    "adapter global override",
  ];
  for (const [i, file] of userConfigFiles(environment).entries())
    await add(file, userRoles[i] ?? "user", "user");
  await add(projectConfigFile, "project-local shared", "project");
  await add(path.join(cwd, PROJECT_OVERRIDE_FILE), "adapter project override", "project");
  if (options.configPath) {
    await add(
      path.resolve(cwd, expandHome(options.configPath, environment.home)),
      "explicit (--config)",
      "explicit",
    );
  }

  const piNative: PiNativeConfigInfo[] = [];
  const nativeFiles = [{ file: path.join(environment.agentDir, "mcp.json"), target: agentConfigFile }];
  if (readProjectFiles) {
    nativeFiles.push({
      file: path.join(cwd, ".pi", "mcp.json"),
      target: path.join(cwd, PROJECT_OVERRIDE_FILE),
    });
  }
  for (const { file, target } of nativeFiles) {
    await add(file, "Pi's own MCP config (never read for connections; setup can copy from it)", "pi-native");
    const servers = await readPiNativeServers(file, cwd, problems);
    if (servers) piNative.push({ file, target, servers });
  }

  return {
    cwd,
    agentConfigFile,
    projectConfigFile,
    projectConfigExists: await fileExists(projectConfigFile),
    paths,
    hosts,
    piNative,
    imports,
    hostConfigDiscovery: discovery,
    problems,
  };
}

async function readOwnFile(
  file: string,
  problems: ConfigProblem[],
): Promise<{ imports?: string[]; discovery?: SetupOverview["hostConfigDiscovery"] }> {
  const read = await readJsonFile(file);
  if (read.kind === "error") problems.push(read.problem);
  if (read.kind !== "ok" || !isPlainObject(read.value)) return {};
  const { imports, settings } = read.value;
  const discovery = isPlainObject(settings) ? settings.hostConfigDiscovery : undefined;
  return {
    imports: Array.isArray(imports) ? imports.filter((n): n is string => typeof n === "string") : [],
    discovery: discovery === "on" || discovery === "prompt" || discovery === "off" ? discovery : undefined,
  };
}

/** The `mcpServers` of one of Pi's own files, mapped to the adapter's shape; `undefined` when absent. */
async function readPiNativeServers(
  file: string,
  cwd: string,
  problems: ConfigProblem[],
): Promise<Record<string, Record<string, unknown>> | undefined> {
  const read = await readJsonFile(file);
  if (read.kind === "missing") return undefined;
  if (read.kind === "error") {
    problems.push(read.problem);
    return undefined;
  }
  const entries = extractHostEntries("mcpServers", read.value, cwd);
  return Object.fromEntries(entries.map((entry) => [entry.name, entry.raw]));
}
