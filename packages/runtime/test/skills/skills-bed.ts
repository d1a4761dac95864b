/**
 * What the skills tests share: per test, a temp dir with the fixture skills
 * written into it, the skills fixture server (the SDK's `SkillsExtension`
 * over stdio) defined on them as `docs`, and runtimes made on a metadata
 * cache in that dir, all shut down and removed after the test.
 */
import { MetadataCache } from "@pi-mcp-adapter/catalog";
import {
  createTempDir,
  skillsFixtureServerPath,
  type TempDir,
  writeSkillsFixture,
} from "@pi-mcp-adapter/test-kit";
import { afterEach, beforeEach } from "vitest";
import { AdapterRuntime, type Host, headlessHost } from "../../src/index.js";
import { connectWith, stdioDefinition } from "../definitions.js";
import { uiHost } from "../hosts.js";

export interface SkillsRuntimeOptions {
  host?: Host;
  /** The fixture server's environment (see its header). */
  env?: Record<string, string>;
  /** The metadata cache's file name in the test's dir: another name lists the server afresh. */
  cacheName?: string;
}

/** Registers the per-test setup; `dir()` and `skillsDir()` are the current test's. */
export function skillsBed(prefix: string) {
  let dir: TempDir | undefined;
  let skills = "";
  const runtimes: AdapterRuntime[] = [];
  beforeEach(async () => {
    dir = await createTempDir(prefix);
    skills = await writeSkillsFixture(dir.join("skills"));
  });
  afterEach(async () => {
    await Promise.all(runtimes.splice(0).map((r) => r.shutdown()));
    await dir?.remove();
  });
  const current = () => {
    if (!dir) throw new Error("skillsBed is used outside a test");
    return dir;
  };
  return {
    dir: current,
    skillsDir: () => skills,
    runtime({ host = headlessHost(), env, cacheName = "mcp-cache.json" }: SkillsRuntimeOptions = {}) {
      const runtime = new AdapterRuntime({
        servers: [
          stdioDefinition("docs", {
            command: process.execPath,
            args: [skillsFixtureServerPath, skills],
            ...(env ? { env } : {}),
          }),
        ],
        host,
        catalog: { cache: new MetadataCache({ file: current().join(cacheName) }) },
        connect: connectWith(),
      });
      runtimes.push(runtime);
      return runtime;
    },
  };
}

/** A host whose approval dialog answers `answer` and records each question in `asked`. */
export const approving = (answer: string, asked: string[]) =>
  uiHost(async (title) => {
    asked.push(title);
    return answer;
  });

/** The text of a call result's content. */
export const textOf = (result: { content: unknown[] }) =>
  result.content.map((c) => (c as { text?: string }).text ?? "").join("\n");
