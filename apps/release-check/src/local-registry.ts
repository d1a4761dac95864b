/**
 * A local npm registry on 127.0.0.1 for `pi install npm:pi-mcp-adapter` as users type it: our packed
 * tarballs are served as if published (one version each, `latest`), and every other request (third-party
 * packuments and tarballs) is redirected to the public registry, so npm fetches those itself, with its own
 * TLS settings and cache. Point npm at it with `npm_config_registry`.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { PackedTarball } from "./published-packages.js";

const UPSTREAM = "https://registry.npmjs.org";

export interface LocalRegistry extends AsyncDisposable {
  /** Ends with `/`, as npm's `registry` setting wants. */
  url: string;
  /** Paths of the requests answered from our tarballs, e.g. `/pi-mcp-adapter`. */
  served: string[];
}

interface Published {
  packument: (base: string) => unknown;
  tarball: Buffer;
}

function publish(tarball: PackedTarball): Published {
  const bytes = readFileSync(tarball.file);
  const manifest = JSON.parse(
    execFileSync("tar", ["-xzOf", tarball.file, "package/package.json"], { encoding: "utf8" }),
  ) as { name: string; version: string };
  const dist = {
    integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}`,
    shasum: createHash("sha1").update(bytes).digest("hex"),
  };
  return {
    tarball: bytes,
    packument: (base) => ({
      name: manifest.name,
      "dist-tags": { latest: manifest.version },
      versions: {
        [manifest.version]: {
          ...manifest,
          _id: `${manifest.name}@${manifest.version}`,
          dist: { ...dist, tarball: `${base}-/local/${path.basename(tarball.file)}` },
        },
      },
    }),
  };
}

export async function startLocalRegistry(tarballs: PackedTarball[]): Promise<LocalRegistry> {
  const byName = new Map(tarballs.map((t) => [t.name, publish(t)]));
  const byFile = new Map(tarballs.map((t) => [`/-/local/${path.basename(t.file)}`, byName.get(t.name)!]));
  const served: string[] = [];
  let base = "";
  const server = createServer((req, res) => {
    const url = req.url ?? "/";
    const name = decodeURIComponent(url.slice(1)).replace(/\?.*$/, "");
    const ours = byName.get(name);
    if (ours) {
      served.push(url);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(ours.packument(base)));
      return;
    }
    const file = byFile.get(url);
    if (file) {
      served.push(url);
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.end(file.tarball);
      return;
    }
    res.writeHead(307, { location: `${UPSTREAM}${url}` });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url: base,
    served,
    [Symbol.asyncDispose]: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
