/**
 * Checks a server's `caFile` when config loads: the file must exist, be
 * readable and hold at least one PEM certificate. A relative path is read
 * from the folder of the config file that set it.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describeError } from "@pi-mcp-adapter/core";

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/;

/** The bundle's absolute path, or why it cannot be used (naming the file and the server). */
export function checkCaFile(
  caFile: string,
  configFile: string,
  server: string,
): { path: string } | { error: string } {
  const file = path.resolve(path.dirname(configFile), caFile);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "is a folder" : describeError(error);
    return {
      error: `CA file "${file}" of server "${server}" cannot be read (${why}); the server is not started`,
    };
  }
  if (!PEM_CERTIFICATE.test(text)) {
    return {
      error: `CA file "${file}" of server "${server}" holds no PEM certificate (expected "-----BEGIN CERTIFICATE-----"); the server is not started`,
    };
  }
  return { path: file };
}
