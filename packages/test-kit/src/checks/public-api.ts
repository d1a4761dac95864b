/**
 * A package's public face, for its public-API test: every name an entry point
 * exports (values and types), as the TypeScript compiler sees it, compared
 * with the list the test pins. Its own subpath (`@pi-mcp-adapter/test-kit/public-api`)
 * so that only these tests load the compiler.
 */
import { fileURLToPath } from "node:url";
import ts from "typescript";

/**
 * Every name the entry point exports, types included, sorted. Named
 * re-exports are read from the entry alone (no other file, no lib: fast);
 * an `export *` needs the modules it names, so then the program loads them.
 */
export function exportedNames(entry: URL | string): string[] {
  const file = entry instanceof URL ? fileURLToPath(entry) : entry;
  const alone = exportsOf(file, true);
  if (!alone.star) return alone.names;
  return exportsOf(file, false).names;
}

function exportsOf(file: string, alone: boolean): { names: string[]; star: boolean } {
  const program = ts.createProgram([file], {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    noEmit: true,
    ...(alone ? { noResolve: true, noLib: true, types: [] } : {}),
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const module = source && checker.getSymbolAtLocation(source);
  if (!source || !module)
    throw new Error(`cannot read the exports of ${file}: not a module the compiler can load`);
  const star = source.statements.some((s) => ts.isExportDeclaration(s) && !s.exportClause);
  const names = checker
    .getExportsOfModule(module)
    .map((symbol) => symbol.name)
    .sort();
  return { names, star };
}

/**
 * What differs between the entry point's exports and the pinned list:
 * `unlisted` are exported but not pinned (add them to the list on purpose, or
 * stop exporting them), `missing` are pinned but no longer exported. Both empty
 * means the face is as reviewed.
 */
export function publicApiDiff(
  entry: URL | string,
  pinned: readonly string[],
): { unlisted: string[]; missing: string[] } {
  const exported = exportedNames(entry);
  return {
    unlisted: exported.filter((name) => !pinned.includes(name)),
    missing: pinned.filter((name) => !exported.includes(name)).sort(),
  };
}
