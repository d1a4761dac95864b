/**
 * What a server says about itself (title, description, instructions), passed
 * as `serverContext`, raises its tools for a query that its tools' own words
 * do not answer: no tool below says "line", but the text editor server
 * describes itself as line-oriented. It also joins each of its tools' meaning
 * vectors: "paintings" is near an art museum's description, not its tool's.
 */
import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

const tools = [
  tool("desktop-commander", "read_file", "Read the contents of a file from the file system.", {
    path: { type: "string" },
  }),
  tool("desktop-commander", "write_file", "Write or overwrite a file."),
  tool("text-editor", "read_text_file", "Read the contents of a text file.", {
    file_path: { type: "string" },
  }),
  tool("text-editor", "edit_text_file_contents", "Edit a text file with patches."),
];
const serverContext = {
  "text-editor": "MCP Text Editor Server\nProvides line-oriented text file editing through a standard API.",
  "desktop-commander": "Desktop Commander\nWork with code and text, run processes and automate tasks.",
};
const query = "read line 10 of this file";

const first = (options: Parameters<typeof createSearchIndex>[1]) =>
  rankTools(query, createSearchIndex(tools, options)).hits[0]?.tool.prefixedName;

describe("server context", () => {
  it("raises the tools of the server whose own description matches the request", () => {
    expect(first({})).toBe("desktop_commander_read_file");
    expect(first({ serverContext })).toBe("text_editor_read_text_file");
  });

  it("changes nothing at weight 0 or for servers without a text", () => {
    expect(first({ serverContext, weights: { serverContext: 0 } })).toBe("desktop_commander_read_file");
    expect(first({ serverContext: { other: "line-oriented" } })).toBe("desktop_commander_read_file");
  });

  it("adds no tool that no query word found", () => {
    const index = createSearchIndex(tools, { serverContext });
    const plain = createSearchIndex(tools);
    expect(rankTools(query, index).total).toBe(rankTools(query, plain).total);
  });
});

describe("server context in the meaning of each tool", () => {
  const shops = [
    tool("museum", "search_items", "Search items by keyword."),
    tool("store", "search_objects", "Search objects by keyword."),
  ];
  const described = {
    museum: "Art museum: artworks, sculpture and drawings of the old masters.",
    store: "Online shop: orders, carts and shipping.",
  };
  // The lexical signal off: only the meaning vectors tell the two tools apart.
  const top = (serverContextMeaning: number) =>
    rankTools(
      "search for famous paintings",
      createSearchIndex(shops, {
        serverContext: described,
        weights: { serverContext: 0, serverContextMeaning },
      }),
    ).hits[0]?.tool.prefixedName;

  it("ranks the tool whose server's text is near the request first", () => {
    expect(top(0)).toBe("store_search_objects");
    expect(top(0.3)).toBe("museum_search_items");
  });
});
