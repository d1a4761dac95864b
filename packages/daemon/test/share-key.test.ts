/**
 * The share key of a server whose environment was built with
 * `sharedServerEnv`: sessions started from two terminals of one user (their
 * environments differ in TERM_SESSION_ID, TMUX_PANE, WINDOWID, OLDPWD, SHLVL,
 * `_`, PWD, TERM) get one key; a different configured `env` value (what a
 * `${VAR}` in it expanded to), a different argument, or a different PATH or
 * proxy gets another. No value of the environment shows in the key.
 */
import { terminalEnv } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { shareKeyFunction } from "../src/daemon/share-key.js";
import { SHARED_SERVER_ENV_NAMES, type SharedSpawnSpec, sharedServerEnv } from "../src/index.js";

const user = {
  HOME: "/home/ada",
  USER: "ada",
  LOGNAME: "ada",
  PATH: "/usr/local/bin:/usr/bin:/bin",
  SHELL: "/bin/zsh",
  LANG: "en_GB.UTF-8",
  LC_TIME: "de_DE.UTF-8",
  HTTPS_PROXY: "http://proxy.example:3128",
  API_TOKEN: "s3cret-token-value",
};
const terminalA = { ...user, ...terminalEnv(1, "/home/ada/project", "/home/ada") };
const terminalB = { ...user, ...terminalEnv(2, "/home/ada/work/project", "/tmp") };

const key = shareKeyFunction();
/** The key of server `args` run from a session with `env`, configured with `configured` (already expanded). */
function keyOf(env: Record<string, string>, configured: Record<string, string> = {}, args = ["server.js"]) {
  const spec: SharedSpawnSpec = {
    command: "node",
    args,
    cwd: "/home/ada/project",
    env: sharedServerEnv({ ...env, ...configured }, configured),
  };
  return key(spec, "client-key");
}

describe("the share key of a shared server", () => {
  it("is one key for two terminals of one user", () => {
    expect(keyOf(terminalA)).toBe(keyOf(terminalB));
    expect(keyOf(terminalA, { FOO: "1" })).toBe(keyOf(terminalB, { FOO: "1" }));
  });

  it("differs when a configured variable, an argument, PATH or a proxy differs", () => {
    const base = keyOf(terminalA, { API_TOKEN: "alice" });
    expect(keyOf(terminalB, { API_TOKEN: "bob" })).not.toBe(base);
    expect(keyOf(terminalB, { API_TOKEN: "alice", EXTRA: "" })).not.toBe(base);
    expect(keyOf(terminalA, { API_TOKEN: "alice" }, ["server.js", "--team=b"])).not.toBe(base);
    expect(keyOf({ ...terminalA, PATH: "/opt/node22/bin:/usr/bin" }, { API_TOKEN: "alice" })).not.toBe(base);
    expect(keyOf({ ...terminalA, HTTPS_PROXY: "http://other:3128" }, { API_TOKEN: "alice" })).not.toBe(base);
    expect(keyOf({ ...terminalA, LC_TIME: "C" }, { API_TOKEN: "alice" })).not.toBe(base);
  });

  it("shows no value: a hex digest", () => {
    expect(keyOf(terminalA, { API_TOKEN: "s3cret-token-value" })).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe("sharedServerEnv", () => {
  it("keeps the listed inherited variables and the configured ones, nothing else", () => {
    expect(terminalA).not.toEqual(terminalB);
    expect(sharedServerEnv({ ...terminalA, FOO: "from config" }, { FOO: "from config" })).toEqual({
      HOME: "/home/ada",
      USER: "ada",
      LOGNAME: "ada",
      PATH: "/usr/local/bin:/usr/bin:/bin",
      SHELL: "/bin/zsh",
      LANG: "en_GB.UTF-8",
      LC_TIME: "de_DE.UTF-8",
      HTTPS_PROXY: "http://proxy.example:3128",
      FOO: "from config",
    });
  });

  it("passes a configured variable even when its name is not listed, and leaves out shell functions", () => {
    expect(sharedServerEnv({ TERM: "xterm", HOME: "() { :; }" }, { TERM: "xterm" })).toEqual({
      TERM: "xterm",
    });
    expect(SHARED_SERVER_ENV_NAMES).not.toContain("TERM");
  });
});
