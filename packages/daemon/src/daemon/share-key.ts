/**
 * The share key: which sessions may use one server process. It is an HMAC of
 * the whole spec (command, args, cwd, env — secrets included) and the
 * client key, under a random key that lives only in this daemon's memory: equal
 * inputs give equal keys, and the key shown in status and logs cannot be used
 * to test guesses of a secret.
 */
import { createHmac, randomBytes } from "node:crypto";
import { canonicalJson } from "@pi-mcp-adapter/core";
import type { SharedSpawnSpec } from "../types.js";

export type ShareKeyFn = (spec: SharedSpawnSpec, clientKey: string) => string;

export function shareKeyFunction(secret: Buffer = randomBytes(32)): ShareKeyFn {
  return (spec, clientKey) => {
    const content = canonicalJson({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd ?? null,
      env: spec.env,
      clientKey,
    });
    return createHmac("sha256", secret).update(content).digest("hex").slice(0, 16);
  };
}
