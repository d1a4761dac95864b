/**
 * The names of the files the guard writes, made and recognised in this one
 * place, so the sweep of old files (`stale-files.ts`) removes only files the
 * guard wrote and never a file of the user's that happens to sit beside them:
 *
 *   <stem>-<8 hex>.<ext>                   complete: the name a result points at
 *   <stem>-<8 hex>.<ext>.<pid>.partial     being written by process <pid>
 *
 * A new kind of file the guard writes takes its name from `guardFileName`.
 */
import { randomBytes } from "node:crypto";
import { safeFileStem } from "./private-dir.js";

const COMPLETE = /^[A-Za-z0-9._-]{1,80}-[0-9a-f]{8}\.[a-z0-9]{1,8}$/;
// Files of releases before the writer's pid was part of the name have no `.<pid>`.
const PARTIAL = /^([A-Za-z0-9._-]{1,80}-[0-9a-f]{8}\.[a-z0-9]{1,8})(?:\.(\d{1,10}))?\.partial$/;

/** A fresh, unpredictable name for a file made from `hint` (a tool name, say). */
export function guardFileName(hint: string, extension: string): string {
  return `${safeFileStem(hint)}-${randomBytes(4).toString("hex")}.${extension}`;
}

/** The name a file is written under until it is complete, naming the writing process. */
export function partialFileName(name: string, pid: number = process.pid): string {
  return `${name}.${pid}.partial`;
}

export type GuardFile = { kind: "complete" } | { kind: "partial"; writer?: number };

/** What a directory entry is, if it is a file the guard wrote; `undefined` for anything else. */
export function recogniseGuardFile(name: string): GuardFile | undefined {
  const partial = PARTIAL.exec(name);
  if (partial) return partial[2] ? { kind: "partial", writer: Number(partial[2]) } : { kind: "partial" };
  return COMPLETE.test(name) ? { kind: "complete" } : undefined;
}
