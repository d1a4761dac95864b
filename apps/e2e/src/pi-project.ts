/**
 * One isolated Pi project for an e2e test: a temp dir holding the project,
 * an agent dir pointed at a scripted model, a HOME and a pid dir, plus the
 * config files the test asks for; runs of the real Pi CLI start in it.
 */
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import {
  type ChatRequest,
  createTempDir,
  type ScriptEntry,
  type ScriptedModel,
  startScriptedModel,
  writePiAgentDir,
} from "@pi-mcp-adapter/test-kit";
import {
  type PiHost,
  type PiProcessOptions,
  type PiRun,
  type RunPiOptions,
  runPi,
  spawnPiRpc,
} from "./pi-hosts.js";

/** Where a project's parts live; all inside one temp dir that disposal removes. */
export interface PiProjectPaths {
  /** The temp dir holding everything below; put test-only files (server scripts, logs) here. */
  root: string;
  /** The project directory Pi starts in (`<root>/project`). */
  dir: string;
  /** Pi's isolated `PI_CODING_AGENT_DIR` (`<root>/agent`), with the scripted model's models.json. */
  agentDir: string;
  /** Pi's isolated HOME (`<root>/home`). */
  home: string;
  /** An empty directory (`<root>/pids`) for `FIXTURE_PID_DIR`, see `stdioFixtureEntry`. */
  pidDir: string;
  /** A path inside `root`. */
  join(...parts: string[]): string;
}

type Json = Record<string, unknown>;
/** A value, or one computed from the project's paths (to point a server at `pidDir`, say). */
type FromPaths<T> = T | ((paths: PiProjectPaths) => T);

export interface PiProjectOptions {
  /** The Pi line every run of this project uses. */
  host: PiHost;
  /**
   * The scripted model's answers, one per chat request, counted across all
   * runs of the project (a second run continues where the first stopped).
   * Requests beyond the script get the text "Done.".
   */
  steps?: ScriptEntry[];
  /** The `mcpServers` of the project's `.mcp.json`; without it, the project has no `.mcp.json`. */
  mcpServers?: FromPaths<Json>;
  /**
   * The user-level adapter config, `<agentDir>/mcp-adapter.json` (no project
   * approval stands between it and the test).
   */
  adapterConfig?: FromPaths<Json>;
  /**
   * Adds `settings.projectServers: "allow"` to the user-level adapter config:
   * headless runs (json mode) start project servers only with it (see the
   * config package README). Runs with a UI ask instead.
   */
  allowProjectServers?: boolean;
  /** More empty directories to create inside the root, e.g. a second pid dir. */
  dirs?: string[];
  /**
   * The user's first session: no first-run marker in the agent dir, so a session with a UI and no
   * servers shows the first-run note. Default false: the marker is there, as for a user who saw it.
   */
  firstRun?: boolean;
}

/** What one Pi process may add to the project's settings: more CLI args, env, another extension dir. */
export type PiProcessExtras = Pick<PiProcessOptions, "extraArgs" | "extension" | "env" | "sessionArgs">;
/** ... and for a json-mode run, the mode and timeout too. */
export type PiRunExtras = PiProcessExtras & Pick<RunPiOptions, "mode" | "timeoutMs">;

export interface PiProject extends PiProjectPaths, AsyncDisposable {
  /** The scripted model; `model.requests` holds every chat request of every run. */
  model: ScriptedModel;
  /** One non-interactive Pi turn (json mode unless `extra.mode` says otherwise) with this project's dirs. */
  run(prompt: string, extra?: PiRunExtras): Promise<PiRun & { requests: ChatRequest[] }>;
  /** Starts Pi in `--mode rpc` with this project's dirs; the caller drives it and kills it. */
  rpc(extra?: PiProcessExtras): ChildProcessWithoutNullStreams;
}

/** Creates the project; `await using` it so the model stops and the temp dir goes away. */
export async function createPiProject(options: PiProjectOptions): Promise<PiProject> {
  const temp = await createTempDir();
  let model: ScriptedModel | undefined;
  try {
    const paths: PiProjectPaths = {
      root: temp.path,
      dir: temp.join("project"),
      agentDir: temp.join("agent"),
      home: temp.join("home"),
      pidDir: temp.join("pids"),
      join: temp.join,
    };
    const extraDirs = (options.dirs ?? []).map((d) => temp.join(d));
    for (const dir of [paths.dir, paths.home, paths.pidDir, ...extraDirs]) {
      await mkdir(dir, { recursive: true });
    }
    const resolve = <T>(value: FromPaths<T>): T =>
      typeof value === "function" ? (value as (p: PiProjectPaths) => T)(paths) : value;

    model = await startScriptedModel(options.steps ?? []);
    await writePiAgentDir(paths.agentDir, model.baseUrl);
    if (!options.firstRun) {
      await mkdir(path.join(paths.agentDir, "mcp-adapter"), { recursive: true });
      await writeFile(path.join(paths.agentDir, "mcp-adapter", "first-run"), "");
    }
    if (options.mcpServers) {
      await writeJson(path.join(paths.dir, ".mcp.json"), { mcpServers: resolve(options.mcpServers) });
    }
    if (options.adapterConfig || options.allowProjectServers) {
      const config = options.adapterConfig ? resolve(options.adapterConfig) : {};
      if (options.allowProjectServers) {
        config.settings = { ...(config.settings as Json | undefined), projectServers: "allow" };
      }
      await writeJson(path.join(paths.agentDir, "mcp-adapter.json"), config);
    }

    const scripted = model;
    const processOptions = { host: options.host, cwd: paths.dir, agentDir: paths.agentDir, home: paths.home };
    const dispose = async () => {
      await scripted.close();
      await temp.remove();
    };
    return {
      ...paths,
      model: scripted,
      async run(prompt, extra = {}) {
        const from = scripted.requests.length;
        const result = await runPi({ ...processOptions, ...extra, prompt });
        return { ...result, requests: scripted.requests.slice(from) };
      },
      rpc: (extra = {}) => spawnPiRpc({ ...processOptions, ...extra }),
      [Symbol.asyncDispose]: dispose,
    };
  } catch (error) {
    await model?.close();
    await temp.remove();
    throw error;
  }
}

function writeJson(file: string, value: unknown): Promise<void> {
  return writeFile(file, JSON.stringify(value));
}
