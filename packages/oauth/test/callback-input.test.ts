import { describe, expect, it } from "vitest";
import { readCallbackParams, readPastedCallback } from "../src/flow/callback-input.js";
import type { OAuthError } from "../src/index.js";

const issuer = { issuer: "https://as.example.com", required: false };
const fail = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return error as OAuthError;
  }
  throw new Error("expected a failure");
};

describe("callback input", () => {
  it("accepts a full callback address, a query string and a bare code", () => {
    expect(readPastedCallback("http://127.0.0.1:1/cb?code=abc&state=s1", "s1")).toEqual({ code: "abc" });
    expect(readPastedCallback("?code=abc&state=s1", "s1")).toEqual({ code: "abc" });
    expect(readPastedCallback("  abc\n", "s1")).toEqual({ code: "abc" });
  });

  it("refuses a missing or foreign state, and an error response, without echoing the code", () => {
    expect(fail(() => readPastedCallback("http://x/cb?code=abc", "s1")).code).toBe("state_mismatch");
    const foreign = fail(() => readPastedCallback("http://x/cb?code=secret-code&state=s2", "s1"));
    expect(foreign.code).toBe("state_mismatch");
    expect(foreign.message).not.toContain("secret-code");
    const denied = fail(() => readPastedCallback("http://x/cb?error=access_denied&state=s1", "s1"));
    expect(denied.code).toBe("authorization_failed");
    expect(denied.message).toContain("access_denied");
    expect(fail(() => readPastedCallback("two words", "s1")).code).toBe("invalid_input");
    expect(fail(() => readPastedCallback("   ", "s1")).code).toBe("invalid_input");
  });

  it("checks the RFC 9207 iss parameter by exact comparison", () => {
    const params = (iss?: string) => new URLSearchParams({ code: "c", state: "s", ...(iss ? { iss } : {}) });
    expect(readCallbackParams(params("https://as.example.com"), "s", issuer)).toEqual({ code: "c" });
    expect(readCallbackParams(params(), "s", issuer)).toEqual({ code: "c" });
    expect(fail(() => readCallbackParams(params("https://evil.example.com"), "s", issuer)).code).toBe(
      "issuer_mismatch",
    );
    expect(fail(() => readCallbackParams(params("https://as.example.com/"), "s", issuer)).code).toBe(
      "issuer_mismatch",
    );
    expect(fail(() => readCallbackParams(params(), "s", { ...issuer, required: true })).code).toBe(
      "issuer_mismatch",
    );
  });
});
