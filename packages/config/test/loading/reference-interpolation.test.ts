// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values use ${VAR} syntax literally
/**
 * Variables written the way other clients write them: OpenCode's `{env:VAR}`
 * and PowerShell's `$env:VAR` (both read by pi-mcp-adapter 2.x) are expanded
 * when connecting, like our `${VAR}`; a missing one is named, never sent empty.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { prepareConnection } from "../../src/index.js";
import { interpolate } from "../../src/secrets/interpolate.js";
import { byName, createWorld, messages } from "../world.js";

describe("{env:VAR} and $env:VAR", () => {
  it("expand like ${VAR}; $${ stays the escape and a missing variable is named", () => {
    expect(interpolate("a-{env:X}-$env:Y-${Z}", { X: "1", Y: "2", Z: "3" })).toEqual({ value: "a-1-2-3" });
    expect(interpolate("C:\\Users\\$env:USERNAME\\bin", { USERNAME: "ann" })).toEqual({
      value: "C:\\Users\\ann\\bin",
    });
    expect(interpolate("$${env:X}", { X: "1" })).toEqual({ value: "${env:X}" });
    expect(interpolate("{env:NOPE}", {})).toEqual({ missing: "NOPE" });
    expect(interpolate("$env:NOPE", {})).toEqual({ missing: "NOPE" });
    // Other braces and dollar signs are not variables.
    expect(interpolate("{envy:X} {input:key} $HOME $envX", {})).toEqual({
      value: "{envy:X} {input:key} $HOME $envX",
    });
  });

  it("an imported OpenCode server gets its {env:VAR} environment, header and URL values", async () => {
    await using w = await createWorld();
    await w.write(path.join(w.home, ".config", "opencode", "opencode.json"), {
      mcp: {
        "oc-local": { type: "local", command: ["tool"], environment: { API_KEY: "{env:OC_KEY}" } },
        "oc-remote": {
          type: "remote",
          url: "https://{env:OC_HOST}/mcp",
          headers: { Authorization: "Bearer $env:OC_KEY" },
        },
      },
    });
    await w.write(path.join(w.home, ".config", "mcp", "mcp.json"), { imports: ["opencode"] });
    const config = await w.load();
    expect(messages(config, "error")).toEqual([]);
    const env = { OC_KEY: "k-123", OC_HOST: "oc.example.com" };
    const local = await prepareConnection(byName(config, "oc-local"), { env });
    expect(local.definition.env).toEqual({ API_KEY: "k-123" });
    const remote = await prepareConnection(byName(config, "oc-remote"), { env });
    expect(remote.definition.url).toBe("https://oc.example.com/mcp");
    expect(remote.definition.headers).toEqual({ Authorization: "Bearer k-123" });
    await expect(prepareConnection(byName(config, "oc-remote"), { env: {} })).rejects.toThrow(
      /url uses \$\{OC_HOST\}, which is not set/,
    );
  });
});
