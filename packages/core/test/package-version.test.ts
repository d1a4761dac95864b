import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CORE_VERSION, packageVersion } from "../src/index.js";

const own = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  version: string;
};

describe("packageVersion", () => {
  it("takes the version a build wrote in, without reading anything", () => {
    expect(packageVersion("no-such-package-anywhere", "9.9.9", import.meta.url)).toBe("9.9.9");
  });

  it("reads <name>/package.json when run from source, as CORE_VERSION is here", () => {
    expect(packageVersion("@pi-mcp-adapter/core", undefined, import.meta.url)).toBe(own.version);
    expect(CORE_VERSION).toBe(own.version);
  });

  it("is a constant in the built package (scripts/bundle-dist.mjs)", () => {
    const built = readFileSync(new URL("../dist/index.js", import.meta.url), "utf8");
    expect(built).toContain(`true ? ${JSON.stringify(own.version)} : void 0`);
  });
});
