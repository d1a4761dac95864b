/**
 * The roots a session offers servers (`roots/list`): its working directory,
 * then any trusted ancestor roots the user configured
 * (`settings.ancestorConfigRoots`) that contain it, each as a `file://` URI.
 * When the working directory changes, listeners (the connection manager's
 * `notifyRootsChanged`) are told, so connected servers ask again.
 */
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { Root } from "@pi-mcp-adapter/core";

export class SessionRoots {
  private cwd: string;
  private readonly listeners = new Set<() => void>();

  /** `ancestors`: trusted roots; only those containing the working directory are offered. */
  constructor(
    cwd: string,
    private readonly ancestors: readonly string[] = [],
  ) {
    this.cwd = path.resolve(cwd);
  }

  /** The roots as servers receive them, the working directory first. */
  list(): Root[] {
    const roots: Root[] = [{ uri: pathToFileURL(this.cwd).href, name: path.basename(this.cwd) || this.cwd }];
    for (const ancestor of this.ancestors) {
      const dir = path.resolve(ancestor);
      const inside = path.relative(dir, this.cwd);
      if (dir === this.cwd || inside.startsWith("..") || path.isAbsolute(inside)) continue;
      const uri = pathToFileURL(dir).href;
      if (!roots.some((r) => r.uri === uri)) roots.push({ uri, name: path.basename(dir) || dir });
    }
    return roots;
  }

  get workingDirectory(): string {
    return this.cwd;
  }

  /** Moves the session to `cwd`; listeners hear of it only when it really changed. */
  setWorkingDirectory(cwd: string): void {
    const next = path.resolve(cwd);
    if (next === this.cwd) return;
    this.cwd = next;
    for (const listener of [...this.listeners]) listener();
  }

  /** Called after each change of the roots; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
