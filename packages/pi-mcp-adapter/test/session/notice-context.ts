/**
 * A headless Pi command context (print/json mode: no UI to draw on) that
 * keeps the notices a subcommand shows, for tests to read.
 */
import type { ExtensionContext } from "@mariozechner/pi-coding-agent";

export function noticeContext(cwd: string): { ctx: ExtensionContext; notes: string[] } {
  const notes: string[] = [];
  const ctx = {
    cwd,
    hasUI: false,
    ui: { notify: (m: string) => notes.push(m) },
  } as unknown as ExtensionContext;
  return { ctx, notes };
}
