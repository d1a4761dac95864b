import { describe, expect, it } from "vitest";
import { rankTools } from "../src/index.js";
import { indexKeywordPhrases } from "../src/indexing/search-keywords.js";
import { tool } from "./catalog-fixture.js";

const tools = [
  tool("bank", "transfer_money", "Move money between accounts; the back office approves large transfers"),
  tool("bank", "create_refund", "Refund a payment"),
  tool("bank", "get_balance", "Get the balance of an account"),
];
const searchKeywords = { bank: { create_refund: ["money back", "give back"], get_balance: ["how much"] } };
const top = (query: string) => rankTools(query, tools, { searchKeywords }).hits.map((h) => h.tool.name);

describe("searchKeywords phrases", () => {
  it("puts a tool first when the query holds one of its multi-word keywords as an exact phrase", () => {
    // Without the phrase boost the tool with "money" in its name and both words in its description wins.
    expect(rankTools("money back", tools).hits[0]!.tool.name).toBe("transfer_money");
    expect(top("money back")[0]).toBe("create_refund");
    expect(top("I want my Money-Back")[0]).toBe("create_refund");
  });

  it("boosts only the words in order and side by side", () => {
    expect(top("back money")[0]).toBe("transfer_money");
    expect(top("money sent back")[0]).toBe("transfer_money");
  });

  it("finds a tool by a phrase made of stop words alone", () => {
    expect(top("how much is left")).toEqual(["get_balance"]);
  });

  it("gives the longest matching phrase's bonus, once per tool", () => {
    const phrases = indexKeywordPhrases([["pull request", "open a pull request", "pull"], ["request"]]);
    expect([...phrases.match("please open a pull request now")]).toEqual([[0, 12]]);
    expect([...phrases.match("pull")]).toEqual([]);
  });
});
