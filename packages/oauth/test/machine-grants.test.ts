import { describe, expect, it } from "vitest";
import { jwtBearerGrant } from "../src/index.js";

describe("jwtBearerGrant (workload identity, RFC 7523)", () => {
  it("presents the workload's JWT as the grant, fetching a fresh one each time when given a function", async () => {
    let issued = 0;
    const grant = jwtBearerGrant({ assertion: async () => `jwt-${++issued}` });
    const first = await grant({ discovery: undefined, scope: "mcp:read" });
    expect(Object.fromEntries(first)).toEqual({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      assertion: "jwt-1",
      scope: "mcp:read",
    });
    expect((await grant({ discovery: undefined, scope: undefined })).get("assertion")).toBe("jwt-2");
    expect(
      (await jwtBearerGrant({ assertion: "fixed" })({ discovery: undefined, scope: undefined })).has("scope"),
    ).toBe(false);
  });
});
