/**
 * `AdapterRuntime` stays a facade that does not grow: hosts reach the parts
 * through its sub-objects (`runtime.watches`, `runtime.pins`, …), so a new
 * feature is a method of its part, never a new member here. The public
 * members are pinned, and no public method, getter or sub-object may be a
 * single call forwarded to a part — except the lifecycle and the ways into
 * the call pipeline, which the facade keeps on purpose. Read with the
 * TypeScript compiler, as public-api.test.ts reads the package's face.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/** Every public member, in source order. */
const MEMBERS = [
  // the session's program, logins, trace and stats
  "host",
  "oauth",
  "trace",
  "stats",
  // the parts, by subject (see src/runtime-parts.ts)
  "servers",
  "listings",
  "catalog",
  "pins",
  "watches",
  "approvals",
  "tasks",
  "turnNotes",
  // lifecycle
  "replace",
  "reload",
  "start",
  "reconnect",
  // the ways into the call pipeline
  "call",
  "callDirect",
  "run",
  "observe",
  "shutdown",
];

/** The members allowed to be one forwarded call: the lifecycle and the call pipeline's ways in. */
const KEPT_FORWARDS = ["start", "call", "callDirect", "run", "observe"];

const file = fileURLToPath(new URL("../src/adapter-runtime.ts", import.meta.url));

function facadeClass(): ts.ClassDeclaration {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.ES2022, true);
  const found = source.statements.find(
    (s): s is ts.ClassDeclaration => ts.isClassDeclaration(s) && s.name?.text === "AdapterRuntime",
  );
  if (!found) throw new Error(`no class AdapterRuntime in ${file}`);
  return found;
}

function isPublic(member: ts.ClassElement): boolean {
  const modifiers = ts.canHaveModifiers(member) ? (ts.getModifiers(member) ?? []) : [];
  const hidden = [ts.SyntaxKind.PrivateKeyword, ts.SyntaxKind.ProtectedKeyword];
  return (
    !modifiers.some((m) => hidden.includes(m.kind)) && !(member.name && ts.isPrivateIdentifier(member.name))
  );
}

function publicMembers(): ts.ClassElement[] {
  return facadeClass().members.filter((m) => !ts.isConstructorDeclaration(m) && isPublic(m));
}

function nameOf(member: ts.ClassElement): string {
  return member.name && (ts.isIdentifier(member.name) || ts.isStringLiteral(member.name))
    ? member.name.text
    : "?";
}

/**
 * `return this.part.x(a, b)` / `this.part.x(a, b)` / `=> this.part.x(a, b)`: one call handing on the
 * member's own arguments, nothing else (a call that composes two parts, like `replace`, is not one).
 */
function isForwardedCall(body: ts.Node | undefined): boolean {
  if (!body) return false;
  let expression: ts.Expression | undefined;
  if (ts.isBlock(body)) {
    if (body.statements.length !== 1) return false;
    const [only] = body.statements;
    if (only && ts.isReturnStatement(only)) expression = only.expression;
    else if (only && ts.isExpressionStatement(only)) expression = only.expression;
  } else if (ts.isExpression(body)) expression = body;
  while (expression && (ts.isAwaitExpression(expression) || ts.isParenthesizedExpression(expression)))
    expression = expression.expression;
  if (!expression) return false;
  // A getter or field that hands out a part's member: `return this.part.x`.
  if (ts.isPropertyAccessExpression(expression)) return expression.getText().startsWith("this.");
  return (
    ts.isCallExpression(expression) &&
    ts.isPropertyAccessExpression(expression.expression) &&
    expression.arguments.every((a) => ts.isIdentifier(a) || ts.isLiteralExpression(a))
  );
}

/** The body of a method or getter, or the function a property is initialised with. */
function bodyOf(member: ts.ClassElement): ts.Node | undefined {
  if (ts.isMethodDeclaration(member) || ts.isGetAccessorDeclaration(member)) return member.body;
  if (ts.isPropertyDeclaration(member) && member.initializer) {
    const init = member.initializer;
    if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) return init.body;
    // `x = this.part.x.bind(this.part)`: a forward in disguise.
    if (ts.isCallExpression(init) && init.expression.getText().endsWith(".bind")) return init;
  }
  return undefined;
}

describe("AdapterRuntime's facade", () => {
  it("has exactly the pinned public members (a new feature goes to a part and its sub-object)", () => {
    expect(publicMembers().map(nameOf)).toEqual(MEMBERS);
  });

  it("forwards no single call except the lifecycle and the call pipeline's ways in", () => {
    const forwards = publicMembers()
      .filter((m) => isForwardedCall(bodyOf(m)))
      .map(nameOf);
    expect(forwards.filter((name) => !KEPT_FORWARDS.includes(name))).toEqual([]);
  });

  it("stays at most 200 lines", () => {
    expect(readFileSync(file, "utf8").trimEnd().split("\n").length).toBeLessThanOrEqual(200);
  });
});
