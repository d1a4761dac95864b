/**
 * What the browser opener is handed instead of a URL with a secret in it: a
 * small local HTML file that sends the browser on to the window's one-time
 * entry URL. The opener's command line (`xdg-open <file>`, and the browser's
 * own) is readable by every local user in `/proc/<pid>/cmdline`; the file is
 * not — it is written with mode 0600 in a directory of mode 0700 made for
 * this viewer — so only the user's own browser can follow the link. A file
 * is removed once its window's page has loaded, and the directory with the
 * viewer.
 */
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";

export class LaunchPages {
  private dir: Promise<string> | undefined;

  /** `parent`: where the private directory is made (default the system's temp dir). */
  constructor(private readonly parent: string = tmpdir()) {}

  /** Writes the page for window `id` that leads to `url`; returns its `file://` URL. */
  async write(id: string, url: string): Promise<string> {
    const file = path.join(await this.directory(), `${id}.html`);
    await writeFile(file, forwardPage(url), { mode: 0o600 });
    // The mode given to writeFile is subject to the umask; a narrower one never hurts, a wider one would.
    await chmod(file, 0o600);
    return pathToFileURL(file).href;
  }

  /** Removes window `id`'s page (its entry URL was used, or the window closed). */
  async remove(id: string): Promise<void> {
    if (!this.dir) return;
    await rm(path.join(await this.dir, `${id}.html`), { force: true }).catch(() => {});
  }

  /** Removes the directory and every page left in it. */
  async close(): Promise<void> {
    const dir = this.dir;
    this.dir = undefined;
    if (dir) await rm(await dir, { recursive: true, force: true }).catch(() => {});
  }

  private directory(): Promise<string> {
    this.dir ??= mkdtemp(path.join(this.parent, "pi-mcp-ui-")).then(async (dir) => {
      await chmod(dir, 0o700);
      return dir;
    });
    return this.dir;
  }
}

/**
 * A page that sends the browser on to `url` at once (no script needed), with
 * a link should it not follow: the launch page, and the entry URL's answer.
 */
export function forwardPage(url: string): string {
  const href = url.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}"><title>Opening the MCP App…</title></head>
<body><p>Opening the MCP App… <a href="${href}">Continue</a></p></body></html>
`;
}
