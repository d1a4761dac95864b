import { prefixedToolName, type ToolMetadata } from "@pi-mcp-adapter/core";

/** A small hand-made catalog: tool name, description and parameter names per server. */
export function tool(
  server: string,
  name: string,
  description: string,
  properties: Record<string, Record<string, unknown>> = {},
  required: string[] = [],
): ToolMetadata {
  return {
    server,
    name,
    prefixedName: prefixedToolName(server, name),
    description,
    inputSchema: { type: "object", properties, required },
    kind: "tool",
  };
}

export const catalog: ToolMetadata[] = [
  tool("chrome-devtools", "take_screenshot", "Take a screenshot of the page or element.", {
    format: { type: "string", enum: ["png", "jpeg"] },
  }),
  tool("chrome-devtools", "navigate_page", "Navigates the currently selected page to a URL.", {
    url: { type: "string", description: "Target URL" },
  }),
  tool("chrome-devtools", "list_console_messages", "List all console messages for the selected page."),
  tool("github", "create_branch", "Create a new branch in a GitHub repository", {
    owner: { type: "string" },
    repo: { type: "string" },
    branch: { type: "string" },
  }),
  tool("github", "merge_pull_request", "Merge a pull request"),
  tool("github", "get_file_contents", "Get the contents of a file or directory from a GitHub repository"),
  tool("github", "search_repositories", "Search for GitHub repositories"),
  tool("gitlab", "create_branch", "Create a new branch in a GitLab project"),
  tool("git", "git_stash", "Stash the changes in a working directory"),
  tool("git", "git_commit", "Records changes to the repository"),
  tool("slack", "slack_list_channels", "List public channels in the workspace"),
  tool("slack", "slack_get_channel_history", "Get recent messages from a channel"),
  tool("slack", "slack_post_message", "Post a new message to a Slack channel"),
  tool(
    "sequential-thinking",
    "sequentialthinking",
    "A detailed tool for dynamic and reflective problem-solving",
  ),
  tool("twilio", "TwilioApiV2010--CreateMessage", "Send a message from the account used to make the request"),
];
