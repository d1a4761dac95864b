/**
 * The way out of a sandbox whose `network.allow` names hosts: an HTTP proxy on
 * a Unix socket (the sandbox has no network of its own), answering CONNECT
 * tunnels and plain `http://` requests only for allowed hosts; anything else
 * gets 403. One proxy per distinct allow-list for the life of the process
 * (unref'd, its socket removed at exit), in a 0700 folder no sandbox can list.
 */
import { once } from "node:events";
import { unlinkSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import path from "node:path";

/** True when `host` is allowed: an exact entry, or `*.example.com` for its subdomains. Case-insensitive. */
export function hostAllowed(host: string, allow: readonly string[]): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  return allow.some((entry) => {
    const rule = entry.toLowerCase();
    return rule.startsWith("*.") ? name.endsWith(rule.slice(1)) : name === rule;
  });
}

const proxies = new Map<string, Promise<string>>();
let counter = 0;

/** The socket path of the proxy for `allow` (started on first use) inside `socketDir`. */
export function allowListProxy(allow: readonly string[], socketDir: string): Promise<string> {
  const key = JSON.stringify([...new Set(allow.map((h) => h.toLowerCase()))].sort());
  let started = proxies.get(key);
  if (!started) {
    started = startProxy(allow, path.join(socketDir, `${process.pid}-${++counter}.sock`));
    proxies.set(key, started);
    started.catch(() => proxies.delete(key));
  }
  return started;
}

async function startProxy(allow: readonly string[], socketPath: string): Promise<string> {
  const server = createServer((request, response) => {
    const target = parseAbsolute(request.url);
    if (!target || !hostAllowed(target.hostname, allow)) {
      return void response.writeHead(403, { "content-type": "text/plain" }).end(refusal(target?.hostname));
    }
    const upstream = httpRequest(target, { method: request.method, headers: request.headers }, (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    upstream.on("error", (error) => {
      if (!response.headersSent) response.writeHead(502, { "content-type": "text/plain" });
      response.end(`upstream failed: ${error.message}`);
    });
    request.pipe(upstream);
  });
  server.on("connect", (request: IncomingMessage, client: Socket, head: Buffer) =>
    tunnel(request, client, head, allow),
  );
  unlinkQuietly(socketPath);
  server.listen(socketPath);
  await once(server, "listening");
  server.unref();
  process.once("exit", () => closeAndUnlink(server, socketPath));
  return socketPath;
}

function tunnel(request: IncomingMessage, client: Socket, head: Buffer, allow: readonly string[]): void {
  client.on("error", () => client.destroy());
  const match = /^(\[[^\]]+\]|[^:]+):(\d+)$/.exec(request.url ?? "");
  const host = match?.[1]?.replace(/^\[|\]$/g, "");
  if (!match || !host || !hostAllowed(host, allow)) {
    return void client.end(`HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\n${refusal(host)}`);
  }
  const upstream = connect(Number(match[2]), host, () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", (error) => {
    if (client.writable) client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\n${error.message}`);
  });
  client.on("close", () => upstream.destroy());
}

function refusal(host: string | undefined): string {
  return `The sandbox's network.allow does not list ${host ?? "this host"}`;
}

function parseAbsolute(url: string | undefined): URL | undefined {
  try {
    const parsed = new URL(url ?? "");
    return parsed.protocol === "http:" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function closeAndUnlink(server: Server, socketPath: string): void {
  server.close();
  unlinkQuietly(socketPath);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // not there
  }
}
