/** The sandbox's places and bwrap command line, without running bwrap (the integration tests run it). */
import { describe, expect, it } from "vitest";
import { bwrapArgs } from "../../src/sandbox/bwrap-args.js";
import { hostAllowed } from "../../src/sandbox/network-proxy.js";
import { localServicePlaces, piAgentDir, sandboxPolicy } from "../../src/sandbox/sandbox-policy.js";

const places = { cwd: "/work/project", home: "/home/ada", agentDir: "/home/ada/.pi/agent" };

describe("sandboxPolicy", () => {
  it("writes only in cwd and hides the credential places by default", () => {
    const policy = sandboxPolicy(true, places);
    expect(policy.writable).toEqual(["/work/project"]);
    expect(policy.readOnly).toEqual(
      expect.arrayContaining(["/work/project/.git/hooks", "/work/project/.pi", "/work/project/.mcp.json"]),
    );
    expect(policy.denyRead).toEqual(
      expect.arrayContaining([
        "/home/ada/.ssh",
        "/home/ada/.aws",
        "/home/ada/.gnupg",
        "/home/ada/.config/gcloud",
        "/home/ada/.pi/agent/auth.json",
        "/home/ada/.pi/agent/mcp-adapter",
        "/home/ada/.pi/agent/mcp-cache.json",
      ]),
    );
    expect(policy.denyRead).not.toContain("/home/ada/.pi/agent");
  });

  it("widens with allowWrite and denyRead: absolute, ~/ and cwd-relative paths", () => {
    const policy = sandboxPolicy(
      {
        filesystem: { allowWrite: ["/var/cache/tool", "~/notes", "out"], denyRead: ["~/.netrc", "secrets/"] },
      },
      { ...places, denyRead: ["/etc/host-secret"] },
    );
    expect(policy.writable).toEqual([
      "/work/project",
      "/var/cache/tool",
      "/home/ada/notes",
      "/work/project/out",
    ]);
    expect(policy.denyRead).toEqual(
      expect.arrayContaining(["/home/ada/.netrc", "/work/project/secrets", "/etc/host-secret"]),
    );
  });

  it("finds the agent dir as Pi does", () => {
    expect(piAgentDir({}, "/home/ada")).toBe("/home/ada/.pi/agent");
    expect(piAgentDir({ PI_CODING_AGENT_DIR: "~/agent" }, "/home/ada")).toBe("/home/ada/agent");
  });
});

describe("bwrapArgs", () => {
  const args = bwrapArgs({
    writable: ["/work/project"],
    hiddenDirs: ["/home/ada/.ssh"],
    hiddenFiles: ["/home/ada/.pi/agent/auth.json"],
    privateTmp: "/tmp/pi-mcp-sandbox-1000",
    cwd: "/work/project",
    command: "/usr/bin/node",
    args: ["server.js", "--flag"],
  });
  const line = args.join(" ");

  it("unshares every namespace (no network) over a read-only root", () => {
    expect(args.slice(0, 3)).toEqual(["--unshare-all", "--die-with-parent", "--new-session"]);
    expect(line).not.toContain("--share-net");
    expect(line).toContain("--ro-bind / /");
  });

  it("mounts writable places, then the private tmp, then hides (later mounts win)", () => {
    const order = [
      line.indexOf("--ro-bind / /"),
      line.indexOf("--bind /work/project /work/project"),
      line.indexOf("--tmpfs /tmp/pi-mcp-sandbox-1000"),
      line.indexOf("--tmpfs /home/ada/.ssh --remount-ro /home/ada/.ssh"),
      line.indexOf("--ro-bind /dev/null /home/ada/.pi/agent/auth.json"),
    ];
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("ends with the server's command line after --", () => {
    expect(args.slice(-6)).toEqual([
      "--chdir",
      "/work/project",
      "--",
      "/usr/bin/node",
      "server.js",
      "--flag",
    ]);
  });
});

describe("hostAllowed (the allow-list proxy's rule)", () => {
  it("matches exact names and *. subdomains, case-insensitively, nothing else", () => {
    const allow = ["api.github.com", "*.example.com"];
    expect(hostAllowed("api.github.com", allow)).toBe(true);
    expect(hostAllowed("API.GitHub.com.", allow)).toBe(true);
    expect(hostAllowed("uploads.github.com", allow)).toBe(false);
    expect(hostAllowed("evil-api.github.com", allow)).toBe(false);
    expect(hostAllowed("a.b.example.com", allow)).toBe(true);
    expect(hostAllowed("example.com", allow)).toBe(false);
    expect(hostAllowed("notexample.com", allow)).toBe(false);
    expect(hostAllowed("127.0.0.1", allow)).toBe(false);
  });
});

describe("bwrapArgs with an allow-list proxy", () => {
  it("binds the proxy socket into the private tmp, after the tmpfs and before the hidden places", () => {
    const line = bwrapArgs({
      writable: ["/w"],
      hiddenDirs: ["/tmp/pi-mcp-sandbox-0-net"],
      hiddenFiles: [],
      privateTmp: "/tmp/pi-mcp-sandbox-0",
      proxySocket: { host: "/tmp/pi-mcp-sandbox-0-net/1-1.sock", inside: "/tmp/pi-mcp-sandbox-0/proxy.sock" },
      cwd: "/w",
      command: "node",
      args: [],
    }).join(" ");
    const tmpfs = line.indexOf("--tmpfs /tmp/pi-mcp-sandbox-0 ");
    const socket = line.indexOf(
      "--ro-bind /tmp/pi-mcp-sandbox-0-net/1-1.sock /tmp/pi-mcp-sandbox-0/proxy.sock",
    );
    const hidden = line.indexOf("--tmpfs /tmp/pi-mcp-sandbox-0-net");
    expect(tmpfs).toBeGreaterThanOrEqual(0);
    expect(socket).toBeGreaterThan(tmpfs);
    expect(hidden).toBeGreaterThan(socket);
  });
});

describe("localServicePlaces", () => {
  it("names the runtime dir, the agents and buses from the environment, X11 and container sockets", () => {
    const places = localServicePlaces(
      {
        XDG_RUNTIME_DIR: "/run/user/1000",
        SSH_AUTH_SOCK: "/tmp/ssh-abc/agent.42",
        DBUS_SESSION_BUS_ADDRESS: "unix:path=/var/bus/session,guid=1",
      },
      1000,
    );
    expect(places).toEqual(
      expect.arrayContaining([
        "/run/user/1000",
        "/tmp/ssh-abc/agent.42",
        "/var/bus/session",
        "/tmp/.X11-unix",
        "/run/docker.sock",
      ]),
    );
    expect(localServicePlaces({}, 1000)).toContain("/run/user/1000");
  });
});
