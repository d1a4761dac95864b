/**
 * What a user is told when the keyring binding will not load. The fork
 * (`@github/keytar`) hides a missing libsecret behind "Failed to load keytar
 * native addon", so the hint asks the loader; the probe is handed in here so
 * both machines (with and without libsecret) are checked on either.
 * `libsecretLoads` itself runs for real below, against this machine.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { loadFailureHint } from "../src/stores/keyring-store.js";
import { libsecretLoads } from "../src/stores/libsecret-probe.js";

const forkError = new Error("Failed to load keytar native addon");
const LIBSECRET = /needs libsecret at run time: install it \(Debian\/Ubuntu: apt install libsecret-1-0\)/;
const REINSTALL = /npm install --include=optional/;

describe("the hint for a keyring binding that does not load", () => {
  it("names libsecret when the fork failed on a machine without it", () => {
    expect(loadFailureHint(forkError, () => false)).toMatch(LIBSECRET);
  });

  it("names libsecret when the error does, whatever the probe says", () => {
    const original = new Error("libsecret-1.so.0: cannot open shared object file: No such file or directory");
    expect(loadFailureHint(original, () => true)).toMatch(LIBSECRET);
  });

  it("asks for a reinstall when the binding is absent, or failed with libsecret present", () => {
    expect(loadFailureHint(new Error("Cannot find package '@github/keytar'"), () => false)).toMatch(
      REINSTALL,
    );
    expect(loadFailureHint(forkError, () => true)).toMatch(REINSTALL);
  });

  it("agrees with the loader's cache on this machine (Linux), and never reports libsecret missing elsewhere", () => {
    if (process.platform !== "linux") return void expect(libsecretLoads()).toBe(true);
    const cache = spawnSync("ldconfig", ["-p"], { encoding: "utf8" });
    expect(cache.status).toBe(0);
    expect(libsecretLoads()).toBe(cache.stdout.includes("libsecret-1.so.0"));
  });
});
