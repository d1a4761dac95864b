import { describe, expect, it } from "vitest";
import { checkElicitationUrl } from "../../src/client-features/elicitation-url.js";

const refused = (url: string) => {
  const checked = checkElicitationUrl(url);
  if (checked.ok) throw new Error(`expected ${JSON.stringify(url)} to be refused`);
  return checked.reason;
};

describe("checkElicitationUrl", () => {
  it("accepts https and reports the host to show", () => {
    expect(checkElicitationUrl("https://example.com/pay?order=1#x")).toEqual({
      ok: true,
      url: "https://example.com/pay?order=1#x",
      host: "example.com",
      warnings: [],
    });
    expect(checkElicitationUrl("https://example.com:8443/a")).toMatchObject({
      ok: true,
      host: "example.com:8443",
    });
  });

  it.each(["http://localhost:3000/cb", "http://127.0.0.1/cb", "http://[::1]:8080/cb"])(
    "accepts plain http only on the loopback host, with a warning: %s",
    (url) => {
      const checked = checkElicitationUrl(url);
      expect(checked).toMatchObject({ ok: true });
      expect(checked.ok && checked.warnings).toEqual([
        "plain http (not encrypted): only for a local development server",
      ]);
    },
  );

  it.each(["http://example.com/", "http://127.0.0.2/", "http://localhost.example.com/"])(
    "refuses plain http elsewhere: %s",
    (url) => {
      expect(refused(url)).toContain("must use https");
    },
  );

  it.each([
    ["javascript:alert(1)", "javascript:"],
    ["file:///etc/passwd", "file:"],
    ["data:text/html,hi", "data:"],
    ["ftp://example.com/x", "ftp:"],
    ["mailto:a@example.com", "mailto:"],
  ])("refuses other schemes: %s", (url, scheme) => {
    expect(refused(url)).toBe(`the scheme ${scheme} is not allowed; the URL must use https`);
  });

  it.each(["https://user:secret@example.com/", "https://user@example.com/", "https://:pw@example.com/"])(
    "refuses embedded credentials: %s",
    (url) => {
      expect(refused(url)).toBe("the URL embeds credentials (user:password@)");
    },
  );

  it.each([
    ["a NUL", "https://example.com/\u0000"],
    ["a newline", "https://example.com/\nx"],
    ["a tab", "https://exa\tmple.com/"],
    ["DEL", "https://example.com/\u007f"],
    ["a C1 control", "https://example.com/\u0085"],
  ])("refuses control characters (%s)", (_what, url) => {
    expect(refused(url)).toBe("the URL contains control characters");
  });

  it.each([
    ["a space", "https://example.com/a b"],
    ["a leading space", " https://example.com/"],
    ["a no-break space", "https://example.com/\u00a0"],
    ["an ideographic space", "https://example.com/\u3000"],
    ["a zero-width space", "https://exam\u200bple.com/"],
  ])("refuses whitespace (%s)", (_what, url) => {
    expect(refused(url)).toBe("the URL contains whitespace");
  });

  it.each([
    ["RLO", "https://example.com/\u202egnp.exe"],
    ["LRM", "https://example.com/\u200e"],
    ["RLI", "https://example.com/\u2067x"],
    ["ALM", "https://example.com/\u061c"],
  ])("refuses bidirectional characters (%s)", (_what, url) => {
    expect(refused(url)).toBe("the URL contains bidirectional text characters");
  });

  it("refuses backslashes, which browsers read as slashes", () => {
    expect(refused("https://example.com\\@evil.com/")).toBe("the URL contains a backslash");
  });

  it("refuses empty and unparsable URLs", () => {
    expect(refused("")).toBe("the URL is empty");
    expect(refused("example.com/path")).toBe("the URL cannot be parsed");
    expect(refused("https://")).toBe("the URL cannot be parsed");
  });

  it("flags punycode hostnames, including Unicode ones the parser turns into punycode", () => {
    const puny = checkElicitationUrl("https://xn--pple-43d.com/login");
    expect(puny).toMatchObject({ ok: true, host: "xn--pple-43d.com" });
    expect(puny.ok && puny.warnings[0]).toContain("internationalised (punycode) name");
    const unicode = checkElicitationUrl("https://аpple.com/login");
    expect(unicode).toMatchObject({ ok: true, host: "xn--pple-43d.com" });
    expect(unicode.ok && unicode.warnings[0]).toContain("xn--pple-43d.com");
    expect(checkElicitationUrl("https://sub.xn--bcher-kva.example/")).toMatchObject({ ok: true });
  });
});
