/**
 * Descriptions as servers write them — docstring-style with a newline first
 * and indented lines (firecrawl-mcp 3.26.0, @circleci/mcp-server-circleci
 * 0.20.0), Windows line ends, a first line right after the quotes — shown by
 * their first line that is not blank, or whole and dedented.
 */
import { describe, expect, it } from "vitest";
import { dedentDescription } from "../../src/format/description-text.js";
import { descriptionFirstLine } from "../../src/startup.js";

const circleci =
  "\n    This tool helps debug CircleCI build failures by retrieving failure logs.\n\n    CRITICAL REQUIREMENTS:\n    1. Large Log Handling:\n       - If you expect large logs, provide outputDir.\n  ";

describe("descriptionFirstLine", () => {
  it("is the first line that is not blank, trimmed", () => {
    expect(descriptionFirstLine(circleci)).toBe(
      "This tool helps debug CircleCI build failures by retrieving failure logs.",
    );
    expect(descriptionFirstLine("\r\n\t\r\n  Scrape a page.\r\n  More.")).toBe("Scrape a page.");
    expect(descriptionFirstLine("Plain one-liner")).toBe("Plain one-liner");
    expect(descriptionFirstLine("   \n \n")).toBe("");
    expect(descriptionFirstLine(undefined)).toBe("");
  });
});

describe("dedentDescription", () => {
  it("drops blank lines around the text and the indentation its lines share", () => {
    expect(dedentDescription(circleci)).toBe(
      "This tool helps debug CircleCI build failures by retrieving failure logs.\n\nCRITICAL REQUIREMENTS:\n1. Large Log Handling:\n   - If you expect large logs, provide outputDir.",
    );
  });

  it("measures indentation without the first line, which often follows the quotes directly", () => {
    expect(dedentDescription("Search the web.\n\n    Args:\n        query: words\n    ")).toBe(
      "Search the web.\n\nArgs:\n    query: words",
    );
    expect(dedentDescription("Already flat.\nSecond line.")).toBe("Already flat.\nSecond line.");
    expect(dedentDescription("\n\n")).toBe("");
  });
});
