/**
 * `pi-mcp-adapter trust [server...]`: shows each project server awaiting
 * approval — the file that defines it and the exact command line it would
 * run — and asks before approving it. Approvals go to the store Pi uses, so
 * an approval here holds in Pi too (and the reverse). `--yes` approves what
 * it shows without asking (after a review, or in a script).
 */
import { createInterface } from "node:readline";
import { describeProjectServer, loadConfig, type ProjectServerApprovalRequest } from "@pi-mcp-adapter/config";
import type { CliContext, CliOutput } from "./cli-context.js";
import { EXIT } from "./cli-error.js";
import { cliProjectTrust } from "./cli-trust.js";

export async function trustCli(ctx: CliContext, words: string[]): Promise<CliOutput> {
  const approved: string[] = [];
  const declined: string[] = [];
  const lines = createInterface({ input: process.stdin, terminal: false })[Symbol.asyncIterator]();
  const say = (text: string) => process.stderr.write(`${text}\n`);
  const confirm = async (request: ProjectServerApprovalRequest): Promise<boolean> => {
    const name = request.server.name;
    if (words.length && !words.includes(name)) return false;
    say(describeProjectServer(request).join("\n"));
    let yes = ctx.options.yes;
    if (!yes) {
      process.stderr.write(`Approve "${name}"? [y/N] `);
      const answer = await lines.next();
      yes = !answer.done && /^\s*y(es)?\s*$/i.test(answer.value);
      if (answer.done) say("");
    }
    (yes ? approved : declined).push(name);
    return yes;
  };
  // An approval that could not be written is not an approval: it is reported and fails the command.
  const unsaved: { name: string; reason: string }[] = [];
  const trust = cliProjectTrust(false, ctx.environment.agentDir, confirm);
  const store = trust.approvals;
  if (store) {
    trust.approvals = {
      isApproved: (key) => store.isApproved(key),
      approve: (key) =>
        store.approve(key).catch((error: unknown) => {
          unsaved.push({ name: key.server, reason: (error as Error).message });
          throw error;
        }),
    };
  }
  let config: Awaited<ReturnType<typeof loadConfig>>;
  try {
    config = await loadConfig({
      cwd: ctx.options.cwd,
      configPath: ctx.options.config,
      trust,
      environment: ctx.environment,
    });
  } finally {
    await lines.return?.();
    process.stdin.destroy();
  }
  const alreadyApproved = config.servers
    .filter((s) => s.scope === "project" && !s.disabled && !approved.includes(s.name))
    .map((s) => s.name);
  const project = config.servers.map((s) => s.name);
  const unknown = words.filter((w) => !approved.includes(w) && !declined.includes(w) && !project.includes(w));
  const saved = approved.filter((name) => !unsaved.some((u) => u.name === name));
  const out: string[] = [];
  if (saved.length) out.push(`Approved: ${saved.join(", ")} (remembered until the definition changes).`);
  for (const { name, reason } of unsaved) out.push(`Not approved: ${name}. ${reason}.`);
  if (declined.length) out.push(`Not approved: ${declined.join(", ")}.`);
  if (alreadyApproved.length) out.push(`Already approved: ${alreadyApproved.join(", ")}.`);
  if (unknown.length) out.push(`No project server named ${unknown.map((u) => `"${u}"`).join(", ")} here.`);
  if (!out.length) out.push(`No project MCP servers await approval in ${ctx.options.cwd}.`);
  return {
    text: out.join("\n"),
    json: { approved: saved, declined, alreadyApproved, unknown, unsaved },
    exitCode: unknown.length || unsaved.length ? EXIT.failed : declined.length ? EXIT.approval : EXIT.ok,
  };
}
