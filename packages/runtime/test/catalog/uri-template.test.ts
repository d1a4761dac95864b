import { describe, expect, it } from "vitest";
import { expandUriTemplate, uriTemplateVariables } from "../../src/calls/uri-template.js";

describe("expandUriTemplate (RFC 6570 simple expansion)", () => {
  it("fills {var} and {a,b}, percent-encoding all but unreserved characters", () => {
    expect(expandUriTemplate("file:///{dir}/{name}", { dir: "a b/c", name: "it's(1)*.txt" })).toBe(
      "file:///a%20b%2Fc/it%27s%281%29%2A.txt",
    );
    expect(expandUriTemplate("geo:{lat,lon}", { lat: 45.5, lon: -73 })).toBe("geo:45.5,-73");
    expect(expandUriTemplate("x://{flag}", { flag: true })).toBe("x://true");
    expect(expandUriTemplate("x://static", {})).toBe("x://static");
  });

  it("names the missing variable, a value that is not a scalar, and an unsupported operator", () => {
    expect(() => expandUriTemplate("x://{id}", {})).toThrow("URI template x://{id} needs args.id");
    expect(() => expandUriTemplate("x://{id}", { id: { a: 1 } })).toThrow(
      "URI template x://{id}: args.id must be a string, number or boolean",
    );
    expect(() => expandUriTemplate("x://{+path}", { path: "a" })).toThrow(
      "URI template x://{+path}: {+path} is not a simple {variable} expansion (only RFC 6570 simple expansion is supported)",
    );
  });

  it("lists a template's variables", () => {
    expect(uriTemplateVariables("geo:{lat,lon}/{zoom}")).toEqual(["lat", "lon", "zoom"]);
  });
});
