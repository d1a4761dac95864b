/**
 * A command that says it saved something must have saved it: when the file
 * cannot be written it says so, names the file and the reason, and exits 1.
 * Run as users run them (the built bin under plain Node, a temp HOME).
 *
 * The write is made to fail by putting a directory where the file belongs
 * (the rename onto it fails with EISDIR): tests run as root here, and root
 * ignores a read-only mode (chmod 0555) on the agent dir, but not this.
 */
import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { stdioFixtureServerPath } from "@pi-mcp-adapter/test-kit";
import { describe, expect, it } from "vitest";
import { cliMachine } from "./cli-machine.js";

describe("CLI writes that fail are reported, not announced", () => {
  it("trust --yes with an approvals file that cannot be written says so and exits 1", async () => {
    const m = await cliMachine();
    await using _ = m.dir;
    const never = { command: process.execPath, args: ["-e", "0"] };
    await writeFile(path.join(m.project, ".mcp.json"), JSON.stringify({ mcpServers: { proj: never } }));
    const approvals = path.join(m.agentDir, "mcp-adapter-approvals.json");
    await mkdir(approvals);

    const trusted = m.run("trust", "--yes");
    expect(trusted.status).toBe(1);
    expect(trusted.stdout).not.toContain("Approved: proj");
    expect(trusted.stdout).toContain(
      `Not approved: proj. Could not save the approval in ${approvals}: EISDIR`,
    );
    const json = JSON.parse(m.run("trust", "--yes", "--json").stdout);
    expect(json).toMatchObject({ approved: [], unsaved: [{ name: "proj" }] });
    // Nothing was stored: the next command still finds the server awaiting approval.
    expect(JSON.parse(m.run("status", "--json").stdout).awaitingApproval).toMatchObject([{ name: "proj" }]);

    // Once the file can be written, the same command approves and remembers.
    await rm(approvals, { recursive: true });
    const fixed = m.run("trust", "--yes");
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toContain("Approved: proj");
    expect(m.run("trust").stdout).toContain("Already approved: proj.");
  }, 60_000);

  it("trust-tools with a metadata cache that cannot be written says so and exits 1", async () => {
    const m = await cliMachine();
    await using _ = m.dir;
    const fixture = { command: process.execPath, args: [stdioFixtureServerPath] };
    await writeFile(path.join(m.agentDir, "mcp-adapter.json"), JSON.stringify({ mcpServers: { fixture } }));
    // The pins live in the metadata cache; a directory in its place makes every write of it fail.
    const cache = path.join(m.agentDir, "mcp-cache.json");
    await mkdir(cache);

    const accepted = m.run("trust-tools", "fixture");
    expect(accepted.status).toBe(1);
    expect(accepted.stdout).toContain("The tools of fixture were not accepted: ");
    expect(accepted.stdout).toContain(`${cache}`);
    expect(accepted.stdout).toContain("EISDIR");
    expect(accepted.stdout).not.toContain("pinned as they are now");

    await rm(cache, { recursive: true });
    const fixed = m.run("trust-tools", "fixture");
    expect(fixed.status).toBe(0);
    expect(fixed.stdout).toContain("pinned as they are now");
  }, 60_000);
});
