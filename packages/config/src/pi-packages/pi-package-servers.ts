/**
 * MCP servers shipped inside Pi packages. A package listed in Pi's settings
 * (`packages` of the agent dir's and, in a trusted project, `.pi/`'s
 * `settings.json`) may declare servers in its `package.json`:
 * `"pi": { "mcp": "./mcp.json" }` (a file, or a list of files, inside the
 * package), an inline config object, or an inline list of named servers.
 * Each server is named `<package>__<server>`; relative paths in `command`,
 * `args` and `cwd` are resolved inside the package and may not leave it; a
 * package never contributes `settings`, `imports` or `disabledMcpServers`.
 * Every problem names the package and is skipped without blocking others.
 */
import { realpath } from "node:fs/promises";
import path from "node:path";
import { fileExists } from "../files/file-exists.js";
import type { StampedReads } from "../files/file-stamps.js";
import { readJsonFile } from "../files/read-json-file.js";
import {
  type ConfigLayer,
  emptyLayer,
  isPlainObject,
  type LayerEntry,
  parseConfigLayer,
} from "../layers/config-layer.js";
import { loadLayerCheck } from "../layers/layer-check-loader.js";
import type { SourceScope } from "../layers/source-scope.js";
import type { ConfigProblem } from "../problems.js";
import {
  isWithin,
  type PackageLocationContext,
  type PackageScope,
  packageDirCandidates,
} from "./package-locations.js";

export interface PiPackageOptions {
  cwd: string;
  home: string;
  agentDir: string;
  /** False in an untrusted project: the project's `.pi/settings.json` is not read. */
  readProject: boolean;
  globalNpmRoot?: string;
  /** How files are read (the loader notes each file's stamp); plain reads by default. */
  reads?: Pick<StampedReads, "readJson">;
}

type ReadJson = StampedReads["readJson"];

/** One layer per package that declares servers (user packages first, then project ones). */
export async function readPiPackageServers(options: PiPackageOptions): Promise<ConfigLayer[]> {
  const readJson: ReadJson = options.reads?.readJson ?? readJsonFile;
  const layers: ConfigLayer[] = [];
  const settingsFiles: [string, PackageLocationContext][] = [
    [
      path.join(options.agentDir, "settings.json"),
      { scope: "user", baseDir: options.agentDir, home: options.home, globalNpmRoot: options.globalNpmRoot },
    ],
  ];
  if (options.readProject) {
    const piDir = path.join(options.cwd, ".pi");
    settingsFiles.push([
      path.join(piDir, "settings.json"),
      { scope: "project", baseDir: piDir, home: options.home },
    ]);
  }
  const roots = new Map<string, PackageScope>();
  for (const [file, context] of settingsFiles) {
    const listed = await listedPackages(file, readJson);
    if ("problem" in listed) {
      const layer = emptyLayer(file, context.scope === "project" ? "project" : "package");
      layer.problems.push(listed.problem);
      layers.push(layer);
      continue;
    }
    for (const [index, source] of listed.sources.entries()) {
      const candidates = source === undefined ? undefined : packageDirCandidates(source, context);
      if (!candidates) {
        const layer = emptyLayer(file, "package");
        layer.problems.push({
          severity: "warning",
          file,
          field: `packages.${index}`,
          message: "not a package source this adapter can locate; its MCP servers are not loaded",
        });
        layers.push(layer);
        continue;
      }
      for (const dir of candidates) {
        if (!(await fileExists(path.join(dir, "package.json")))) continue;
        // The same package in both settings: the project's entry wins, as in Pi.
        roots.set(dir, context.scope);
        break;
      }
    }
  }
  for (const [root, scope] of roots) {
    const layer = await readPackage(root, scope === "project" ? "project" : "package", readJson);
    if (layer) layers.push(layer);
  }
  return layers;
}

async function listedPackages(
  file: string,
  readJson: ReadJson,
): Promise<{ sources: (string | undefined)[] } | { problem: ConfigProblem }> {
  const read = await readJson(file);
  if (read.kind === "missing") return { sources: [] };
  if (read.kind === "error") return { problem: read.problem };
  const packages = isPlainObject(read.value) ? read.value.packages : undefined;
  if (packages === undefined) return { sources: [] };
  if (!Array.isArray(packages))
    return {
      problem: {
        severity: "warning",
        file,
        field: "packages",
        message: "expected a list of package sources",
      },
    };
  return {
    sources: packages.map((entry) =>
      typeof entry === "string"
        ? entry
        : isPlainObject(entry) && typeof entry.source === "string"
          ? entry.source
          : undefined,
    ),
  };
}

async function readPackage(
  root: string,
  scope: SourceScope,
  readJson: ReadJson,
): Promise<ConfigLayer | undefined> {
  const manifestFile = path.join(root, "package.json");
  const manifest = await readJson(manifestFile);
  const layer = emptyLayer(manifestFile, scope);
  if (manifest.kind !== "ok") {
    if (manifest.kind === "error") layer.problems.push(manifest.problem);
    return manifest.kind === "error" ? layer : undefined;
  }
  const pi = isPlainObject(manifest.value) ? manifest.value.pi : undefined;
  const declared = isPlainObject(pi) ? pi.mcp : undefined;
  if (declared === undefined) return undefined;
  const rawName = isPlainObject(manifest.value) ? manifest.value.name : undefined;
  const packageName = typeof rawName === "string" && rawName ? rawName : path.basename(root);
  const prefix = namePart(packageName, "package");
  const warn = (message: string, file = manifestFile, field?: string) =>
    layer.problems.push({
      severity: "warning",
      file,
      ...(field ? { field } : {}),
      message: `Pi package ${packageName}: ${message}`,
    });

  /** Each config document, and how a field inside it is named in the file it came from. */
  const documents: { file: string; field: (inner: string) => string; document: unknown }[] = [];
  const items = typeof declared === "string" ? [declared] : Array.isArray(declared) ? declared : [declared];
  for (const [index, item] of items.entries()) {
    if (typeof item === "string") {
      const file = await fileInside(root, item);
      if (!file) {
        warn(`MCP config "${item}" must be a file inside the package; skipped`, manifestFile, "pi.mcp");
        continue;
      }
      const read = await readJson(file);
      if (read.kind === "ok") documents.push({ file, ...configDocument(read.value, "") });
      else if (read.kind === "error") layer.problems.push(read.problem);
      else warn(`MCP config "${item}" does not exist; skipped`, manifestFile, "pi.mcp");
    } else if (Array.isArray(declared)) {
      // One named server of an inline list: `mcp.servers.0.x` in its own document is `pi.mcp.<index>.x` in the file.
      const field = (inner: string) => inner.replace(/^mcp\.servers\.0/, `pi.mcp.${index}`);
      documents.push({ file: manifestFile, field, document: { mcp: { servers: [item] } } });
    } else if (isPlainObject(item)) documents.push({ file: manifestFile, ...configDocument(item, "pi.mcp") });
    else
      warn(
        `expected a file path, a list or an object, found ${typeof item}`,
        manifestFile,
        `pi.mcp${Array.isArray(declared) ? `.${index}` : ""}`,
      );
  }

  if (documents.length === 0) return layer;
  const seen = new Set<string>();
  const check = await loadLayerCheck();
  for (const { file, field: fieldIn, document } of documents) {
    const parsed = parseConfigLayer(document, file, scope, check);
    for (const problem of parsed.problems) {
      layer.problems.push({
        ...problem,
        ...(problem.field ? { field: fieldIn(problem.field) } : {}),
      });
    }
    const ignored = ["settings", "imports", "disabledMcpServers"].filter(
      (key) => isPlainObject(document) && key in document,
    );
    if (ignored.length)
      warn(`${ignored.join(", ")} in a package's MCP config are ignored (only its servers are used)`, file);
    for (const entry of parsed.entries) {
      const name = `${prefix}__${namePart(entry.name, "server")}`;
      const field = fieldIn(entry.source.key);
      if (seen.has(name)) {
        warn(`two servers become "${name}"; the second is skipped`, file, field);
        continue;
      }
      const contained = containPaths(entry, root);
      if ("error" in contained) {
        warn(`server "${entry.name}": ${contained.error}; the server is not loaded`, file, field);
        continue;
      }
      seen.add(name);
      layer.entries.push({ ...contained.entry, name, source: { file, key: field } });
    }
  }
  return layer;
}

/**
 * A config document as the layer parser reads it: a full config (`mcpServers`
 * or `mcp.servers`), or a bare map of servers by name, wrapped. `field` names
 * a parsed field as it is in the file (`base` is where the document sits).
 */
function configDocument(
  value: unknown,
  base: string,
): { document: unknown; field: (inner: string) => string } {
  const at = (inner: string) => (base ? `${base}.${inner}` : inner);
  if (isPlainObject(value) && !("mcpServers" in value) && !("mcp" in value)) {
    return { document: { mcpServers: value }, field: (inner) => at(inner.replace(/^mcpServers\./, "")) };
  }
  return { document: value, field: at };
}

/** A path the manifest names, as a real file inside the package (symlinks followed), or `undefined`. */
async function fileInside(root: string, relative: string): Promise<string | undefined> {
  const lexical = path.resolve(root, relative);
  if (!isWithin(root, lexical)) return undefined;
  try {
    const [realRoot, realFile] = await Promise.all([realpath(root), realpath(lexical)]);
    return isWithin(realRoot, realFile) ? lexical : undefined;
  } catch {
    return lexical;
  }
}

const isRelativePath = (value: string) => value === "." || value === ".." || /^\.\.?[\\/]/.test(value);

/** `command`, `args` and `cwd` that are relative paths, resolved in the package; an escape is an error. */
function containPaths(entry: LayerEntry, root: string): { entry: LayerEntry } | { error: string } {
  const resolved = { ...entry.entry };
  const inside = (value: string, what: string): string | { error: string } => {
    const absolute = path.resolve(root, value);
    return isWithin(root, absolute)
      ? absolute
      : { error: `${what} "${value}" resolves outside the package (${absolute})` };
  };
  if (resolved.command !== undefined && isRelativePath(resolved.command)) {
    const command = inside(resolved.command, "command");
    if (typeof command !== "string") return command;
    resolved.command = command;
  }
  if (
    resolved.cwd !== undefined &&
    !path.isAbsolute(resolved.cwd) &&
    !resolved.cwd.startsWith("~") &&
    !resolved.cwd.includes("${")
  ) {
    const cwd = inside(resolved.cwd, "cwd");
    if (typeof cwd !== "string") return cwd;
    resolved.cwd = cwd;
  }
  if (resolved.args) {
    const args: string[] = [];
    for (const arg of resolved.args) {
      if (!isRelativePath(arg)) {
        args.push(arg);
        continue;
      }
      const absolute = inside(arg, "argument");
      if (typeof absolute !== "string") return absolute;
      args.push(absolute);
    }
    resolved.args = args;
  }
  return { entry: { ...entry, entry: resolved } };
}

/** A name made of letters, digits, `_` and `-` (`@acme/tools` → `acme_tools`). */
function namePart(value: string, fallback: string): string {
  return value.replace(/[^A-Za-z0-9_-]+/g, "_").replace(/^[_-]+|[_-]+$/g, "") || fallback;
}
