#!/usr/bin/env node
// The demo MCP server behind `npm start`: a few deterministic text tools over
// stdio, with no network and no API key.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { z } from "zod";

const server = new McpServer(
  { name: "demo", version: "1.0.0" },
  { instructions: "Text utilities: count words, change case, make slugs, and tell the time in a time zone." },
);
const reply = (text) => ({ content: [{ type: "text", text }] });

server.registerTool(
  "word_count",
  {
    description: "Count the words, lines and characters in a piece of text.",
    inputSchema: { text: z.string().describe("The text to count") },
    annotations: { readOnlyHint: true },
  },
  ({ text }) => {
    const words = text.trim() ? text.trim().split(/\s+/).length : 0;
    return reply(`${words} words, ${text.split("\n").length} lines, ${[...text].length} characters`);
  },
);
server.registerTool(
  "change_case",
  {
    description: "Convert text to upper, lower or title case.",
    inputSchema: { text: z.string(), to: z.enum(["upper", "lower", "title"]).describe("Target case") },
    annotations: { readOnlyHint: true },
  },
  ({ text, to }) =>
    reply(
      to === "upper"
        ? text.toUpperCase()
        : to === "lower"
          ? text.toLowerCase()
          : text.toLowerCase().replace(/\b\p{L}/gu, (c) => c.toUpperCase()),
    ),
);
server.registerTool(
  "slugify",
  {
    description: "Make a URL slug from a title, e.g. 'Hello, World!' -> 'hello-world'.",
    inputSchema: { title: z.string() },
    annotations: { readOnlyHint: true },
  },
  ({ title }) =>
    reply(
      title
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-|-$/g, ""),
    ),
);
server.registerTool(
  "current_time",
  {
    description: "Tell the current date and time in an IANA time zone such as Europe/Paris.",
    inputSchema: { timeZone: z.string().default("UTC").describe("IANA time zone name") },
    annotations: { readOnlyHint: true },
  },
  ({ timeZone }) => {
    try {
      return reply(new Date().toLocaleString("en-GB", { timeZone, dateStyle: "full", timeStyle: "long" }));
    } catch {
      return { isError: true, content: [{ type: "text", text: `Unknown time zone: ${timeZone}` }] };
    }
  },
);

await server.connect(new StdioServerTransport());
