/**
 * A short list of well-known MCP servers setup offers as ready entries. Each
 * entry is what the server's own documentation gives for MCP clients; none
 * holds a credential (GitHub reads its token from the environment, Notion
 * signs in with OAuth on first use).
 */
export interface CuratedServer {
  /** The server name written into `mcpServers`. */
  id: string;
  title: string;
  summary: string;
  /** The `mcpServers` entry, in the adapter's own shape. */
  entry: Record<string, unknown>;
  /** What the user still has to do, if anything. */
  note?: string;
}

export const CURATED_SERVERS: readonly CuratedServer[] = [
  {
    id: "deepwiki",
    title: "DeepWiki",
    summary: "documentation and Q&A for public GitHub repositories (no sign-in)",
    entry: { url: "https://mcp.deepwiki.com/mcp" },
  },
  {
    id: "context7",
    title: "Context7",
    summary: "current, version-specific library documentation",
    entry: { url: "https://mcp.context7.com/mcp" },
    note: "works without a key at a lower rate limit; add a CONTEXT7_API_KEY header for more",
  },
  {
    id: "notion",
    title: "Notion",
    summary: "search and edit your Notion workspace",
    entry: { url: "https://mcp.notion.com/mcp", auth: "oauth" },
    note: "signs in with OAuth: run /mcp-auth notion (or pi-mcp-adapter auth notion)",
  },
  {
    id: "github",
    title: "GitHub",
    summary: "repositories, issues, pull requests and Actions (GitHub's hosted server)",
    entry: { url: "https://api.githubcopilot.com/mcp/", bearerTokenEnv: "GITHUB_PERSONAL_ACCESS_TOKEN" },
    note: "set GITHUB_PERSONAL_ACCESS_TOKEN to a personal access token",
  },
  {
    id: "chrome-devtools",
    title: "Chrome DevTools",
    summary: "drive and inspect a local Chrome browser",
    entry: { command: "npx", args: ["-y", "chrome-devtools-mcp@1.6.0"] },
    note: "needs Node.js and a local Chrome",
  },
];

export function findCuratedServer(id: string): CuratedServer | undefined {
  return CURATED_SERVERS.find((server) => server.id === id.toLowerCase());
}
