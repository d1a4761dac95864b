/**
 * The verdicts of the compatibility suite: for one server and what the run
 * saw of it, whether each check passed and a detail to show when it did
 * not. The tests assert these, and the README's table is drawn from them.
 */
import type { ServerSeen } from "./compat-run.js";
import type { CompatCall, CompatPaths, CompatServer } from "./compat-servers.js";

export const CHECKS = [
  "connect",
  "cached",
  "search",
  "searchLine",
  "describe",
  "offline",
  "network",
  "cleanup",
] as const;
export type CheckName = (typeof CHECKS)[number];

export interface Verdict {
  /** `null` when the check does not apply to the server (no offline call, say). */
  pass: boolean | null;
  /** What was seen, for the failure message and the table. */
  detail: string;
}

/**
 * Faults the suite meets that are fixed on other branches: the checks assert
 * the correct behaviour and run as `it.fails` until then; the entry goes when
 * the fix lands. Issue 36 items 1–3 (firecrawl's and CircleCI's blank first
 * description line in search, azure-devops's start error not naming keytar)
 * were here until main fixed them.
 */
export const KNOWN_FAULTS: { server: string; check: CheckName; issue: string }[] = [];

const short = (text: string, max = 160) => {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

const NETWORK_GENERIC = /^(error|failed|tool call failed|internal error)\.?$/i;

function callMatches(call: CompatCall, seen: { ok: boolean | undefined; text: string }, paths: CompatPaths) {
  const pattern = typeof call.expect === "function" ? call.expect(paths) : call.expect;
  return pattern.test(seen.text);
}

export function verdict(
  server: CompatServer,
  seen: ServerSeen,
  check: CheckName,
  paths: CompatPaths,
): Verdict {
  const none = { pass: null, detail: "n/a" };
  const started = !server.startFailure;
  switch (check) {
    case "connect":
      if (server.startFailure) {
        const error = seen.connect.error ?? "";
        return { pass: !seen.connect.ok && server.startFailure.test(error), detail: short(error, 240) };
      }
      return {
        pass: seen.connect.ok && (seen.connect.toolCount ?? 0) > 0,
        detail: seen.connect.ok ? `${seen.connect.toolCount} tools` : short(seen.connect.error ?? ""),
      };
    case "cached":
      if (!started) return none;
      return {
        pass: seen.listed && seen.cachedTools === seen.connect.toolCount,
        detail: `listed: ${seen.listed}, ${seen.cachedTools ?? "no"} tools in mcp-cache.json`,
      };
    case "search": {
      if (!started) return none;
      const hits = seen.search?.hits ?? [];
      const wanted = server.search.expect.map((tool) => seen.callNames[tool] ?? `${server.name}_${tool}`);
      const rank = hits.findIndex((hit) => wanted.includes(hit));
      return {
        pass: rank >= 0 && rank < 5,
        detail:
          rank >= 0
            ? `#${rank + 1} for "${server.search.query}"`
            : `not found: ${hits.slice(0, 5).join(", ")}`,
      };
    }
    case "searchLine": {
      if (!started) return none;
      const lines = (seen.search?.text ?? "").split("\n");
      const own = lines.filter((line) => line.startsWith(`- ${server.name}_`));
      if (own.length === 0) return { pass: null, detail: "none of its tools shown" };
      const empty = own.filter((line) => /^- \S+( \[\w+\])?:\s*$/.test(line));
      return {
        pass: empty.length === 0,
        detail: empty.length ? `empty: ${empty.join(" ")}` : `${own.length} lines with a description`,
      };
    }
    case "describe": {
      if (!started) return none;
      const text = seen.describe?.text ?? "";
      const missing = server.describe.params.filter((p) => !text.includes(`- ${p} (`));
      return {
        pass: seen.describe?.ok === true && text.includes("Parameters") && missing.length === 0,
        detail: missing.length
          ? `missing ${missing.join(", ")}: ${short(text)}`
          : `${server.describe.tool}: ok`,
      };
    }
    case "offline": {
      if (!server.offline?.length) return none;
      const failed = server.offline.flatMap((call, i) => {
        const got = seen.offline[i];
        return got?.ok && callMatches(call, got, paths)
          ? []
          : [`${call.tool}: ${short(got?.text ?? "not run")}`];
      });
      return {
        pass: failed.length === 0,
        detail: failed.join("; ") || server.offline.map((c) => c.tool).join(", "),
      };
    }
    case "network": {
      if (!server.network) return none;
      const got = seen.network;
      const text = got?.text ?? "not run";
      // The server's own words are what counts; whether it flags them as an error is its choice (context7 does not).
      return {
        pass:
          got !== undefined && callMatches(server.network, got, paths) && !NETWORK_GENERIC.test(text.trim()),
        detail: `${got?.ok === false ? "error" : "result"}: ${short(text)}`,
      };
    }
    case "cleanup":
      return {
        pass: seen.leftovers.length === 0,
        detail: seen.leftovers.map((l) => short(l, 100)).join("; ") || "none left",
      };
  }
}

/** True when the check of this server is one of `KNOWN_FAULTS`. */
export function knownFault(server: string, check: CheckName): string | undefined {
  return KNOWN_FAULTS.find((f) => f.server === server && f.check === check)?.issue;
}
