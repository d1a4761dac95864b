/**
 * Compile hints for the files a Pi start-up loads (used by bundle-dist.mjs).
 *
 * V8 compiles a function lazily, on its first call, unless the function is
 * an expression inside parentheses (`(function f() {…})`, the "PIFE"
 * heuristic), which it compiles with the file. Node's compile cache (Pi 1.6
 * turns it on) stores what was compiled with the file, so a lazily compiled
 * function is compiled again by every start that calls it, an eager one never
 * after the first. Each top-level `function f(…) {…}` of a file becomes
 * `var f = (function f(…) {…});` at the top of the file: compiled with it, and
 * defined before any of the file's code runs, as a declaration is. The one
 * difference, a call from another module before this file has run (an import
 * cycle), cannot happen to a file no cycle passes through; `eagerFiles` picks
 * only such files.
 */
import { parse } from "acorn";

/** `text` with its top-level function declarations made eagerly compiled expressions, hoisted to its top. */
export function eagerFunctions(text) {
  const program = parse(text, { ecmaVersion: "latest", sourceType: "module" });
  const hoisted = [];
  let rest = "";
  let at = 0;
  for (const node of program.body) {
    if (node.type !== "FunctionDeclaration" || node.generator) continue;
    hoisted.push(`var ${node.id.name} = (${text.slice(node.start, node.end)});`);
    rest += text.slice(at, node.start);
    at = node.end;
  }
  if (hoisted.length === 0) return text;
  // First in the file (a module's imports are bound before any of its code runs, wherever they stand), after
  // a program's `#!` line, which must stay the first.
  const body = rest + text.slice(at);
  const hashBang = body.startsWith("#!") ? body.slice(0, body.indexOf("\n") + 1) : "";
  return `${hashBang}${hoisted.join("\n")}\n${body.slice(hashBang.length)}`;
}

/**
 * The output files a start-up can load: the entries and what they import
 * statically, not the chunks only a dynamic `import()` reaches (loaded later,
 * some large and third-party: left as they are). A file on a cycle of static
 * imports is left out (see the module comment).
 */
export function eagerFiles(metafile) {
  const outputs = metafile.outputs;
  const staticImports = (file) =>
    (outputs[file]?.imports ?? [])
      .filter((i) => i.kind === "import-statement" && !i.external)
      .map((i) => i.path);
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !file.endsWith(".js")) return;
    reached.add(file);
    for (const next of staticImports(file)) visit(next);
  };
  for (const [file, output] of Object.entries(outputs)) if (output.entryPoint) visit(file);
  const onCycle = (file) => {
    const seen = new Set();
    const stack = [...staticImports(file)];
    while (stack.length) {
      const next = stack.pop();
      if (next === file) return true;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...staticImports(next));
    }
    return false;
  };
  return [...reached].filter((file) => !onCycle(file));
}
