/**
 * A private certificate authority made for a test with the `openssl` CLI: a
 * CA certificate (the `caFile` a user would configure) and a server
 * certificate it signed for 127.0.0.1 and localhost.
 */
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

export interface PrivateCa {
  /** The CA certificate, PEM, on disk. */
  caFile: string;
  /** The server's key and certificate (PEM text), for `https.createServer`. */
  key: string;
  cert: string;
}

const run = promisify(execFile);

/** Creates the CA and a server certificate in `dir` (which must exist). */
export async function createPrivateCa(dir: string): Promise<PrivateCa> {
  const at = (name: string) => path.join(dir, name);
  const openssl = (...args: string[]) => run("openssl", args, { cwd: dir });
  await openssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-keyout",
    at("ca.key"),
    "-out",
    at("ca.pem"),
    "-subj",
    "/CN=Test Private CA",
  );
  await openssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    at("server.key"),
    "-out",
    at("server.csr"),
    "-subj",
    "/CN=127.0.0.1",
  );
  await writeFile(at("server.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\n");
  await openssl(
    "x509",
    "-req",
    "-in",
    at("server.csr"),
    "-CA",
    at("ca.pem"),
    "-CAkey",
    at("ca.key"),
    "-CAcreateserial",
    "-days",
    "2",
    "-out",
    at("server.pem"),
    "-extfile",
    at("server.ext"),
  );
  return {
    caFile: at("ca.pem"),
    key: await readFile(at("server.key"), "utf8"),
    cert: await readFile(at("server.pem"), "utf8"),
  };
}
