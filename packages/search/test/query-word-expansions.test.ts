import { describe, expect, it } from "vitest";
import { createSearchIndex, rankTools } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

/** A small telephony catalog, written for this test. */
const phone = [
  tool("voice", "CreateCall", "Create a new outgoing call to phones or client connections.", {
    To: { type: "string", description: "The phone number to call." },
  }),
  tool("voice", "CreateIncomingPhoneNumber", "Buy a phone number for the account.", {
    PhoneNumber: { type: "string", description: "The phone number to buy." },
  }),
  tool("voice", "UpdateIncomingPhoneNumber", "Update a phone number's settings.", {
    Sid: { type: "string", description: "The SID of the phone number." },
  }),
  tool("voice", "ListIncomingPhoneNumber", "List the phone numbers of the account."),
];

// Without word vectors, so a score is the words' matches alone.
const index = createSearchIndex(phone, { wordVectors: false });
const scoreOf = (query: string, name: string) =>
  rankTools(query, index, { limit: 10 }).hits.find((h) => h.tool.name === name)?.score ?? 0;

describe("a query word's expansions", () => {
  it("never stand for another word of the query (ring ≈ phone does not count `phone` twice)", () => {
    // "ring" means call; its synonym "phone" is already the query's own word, so for a tool named for
    // phone numbers "ring" counts as a word it does not match, like "banana".
    const numberTool = scoreOf("ring a phone number", "CreateIncomingPhoneNumber");
    expect(numberTool).toBeGreaterThan(0);
    expect(numberTool).toBeCloseTo(scoreOf("banana a phone number", "CreateIncomingPhoneNumber"), 9);
    // Alone, or beside other words, "ring" still finds what its synonyms find.
    expect(scoreOf("ring", "CreateIncomingPhoneNumber")).toBeGreaterThan(0);
    expect(rankTools("ring a phone number", index).hits[0]?.tool.name).toBe("CreateCall");
  });
});
