import { describe, expect, it } from "vitest";
import { serverNameFromUrl } from "../../src/pi/tools/install-server.js";

describe("the name an installed server gets from its URL", () => {
  it("is the product's word in the host, without generic labels", () => {
    expect(serverNameFromUrl(new URL("https://mcp.linear.app/mcp"))).toBe("linear");
    expect(serverNameFromUrl(new URL("https://api.githubcopilot.com/mcp/"))).toBe("githubcopilot");
    expect(serverNameFromUrl(new URL("https://docs.mcp.cloudflare.com/sse"))).toBe("cloudflare");
  });

  it("says where a loopback or bare-address server runs", () => {
    expect(serverNameFromUrl(new URL("http://127.0.0.1:3001/mcp"))).toBe("local-3001");
    expect(serverNameFromUrl(new URL("http://localhost/mcp"))).toBe("local");
    expect(serverNameFromUrl(new URL("http://[::1]:8080/"))).toBe("local-8080");
  });
});
