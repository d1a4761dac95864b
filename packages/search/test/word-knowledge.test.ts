import { describe, expect, it } from "vitest";
import { createSearchIndex, englishLexicon, type Lexicon, rankTools, stem } from "../src/index.js";
import { tool } from "./catalog-fixture.js";

/** A small payments-and-phone catalog, written for these tests. */
const shop = [
  tool("payments", "create_refund", "Refund a payment intent.", {
    payment_intent: { type: "string", description: "ID of the payment intent" },
    amount: { type: "integer" },
  }),
  tool("payments", "create_customer", "Create a customer with an email address.", {
    email: { type: "string" },
  }),
  tool("payments", "list_invoices", "List the invoices of a customer.", { customer: { type: "string" } }),
  tool("payments", "create_payment_link", "Create a payment link for a product.", {
    price: { type: "string" },
  }),
  tool("browser", "navigate_back", "Go back to the previous page in the history."),
  tool("devtools", "emulate", "Emulates features on the target page.", {
    networkConditions: {
      type: "string",
      description: "Throttle network.",
      enum: ["Offline", "Slow 3G", "Fast 4G"],
    },
  }),
  tool("devtools", "take_screenshot", "Take a screenshot of the page."),
];

const top = (query: string, tools = shop, options = {}) =>
  rankTools(query, createSearchIndex(tools, options), { limit: 3 }).hits.map((h) => h.tool.name);

describe("plain-words search through the English lexicon", () => {
  it("finds a refund tool for 'return the money', which its text never says", () => {
    expect(top("return the money")[0]).toBe("create_refund");
    expect(top("return the money", shop, { lexicon: false })).not.toContain("create_refund");
  });

  it("stays a discount: a tool that names a query word still comes first", () => {
    // `navigate_back` names "back"; the refund tool is only described by "money".
    expect(top("money back")[0]).toBe("navigate_back");
  });

  it("reads a verb whose particle stands after its object (give … back = refund)", () => {
    expect(top("give them their money back")[0]).toBe("create_refund");
    // Without the lexicon "back" is just back.
    expect(top("give them their money back", shop, { lexicon: false })[0]).toBe("navigate_back");
    // Only at the query's end: here "back" begins "back to the previous page".
    expect(top("go back to the previous page")[0]).toBe("navigate_back");
    // And call … back is still a call.
    const phone = [
      tool("phone", "create_call", "Start an outgoing phone call."),
      tool("phone", "send_message", "Send a text message."),
      tool("browser", "navigate_back", "Go back to the previous page in the history."),
    ];
    expect(top("call the customer back", phone)[0]).toBe("create_call");
  });

  it("keeps only one-word synonyms: the parts of `put down` do not make take down a kind of put", () => {
    const takeDown = englishLexicon.related(`${stem("take")}_${stem("down")}`).map(([word]) => word);
    expect(takeDown).toContain(stem("dismantle"));
    expect(takeDown).not.toContain(stem("put"));
    expect(englishLexicon.related(`${stem("give")}_${stem("back")}`).map(([word]) => word)).toContain(
      stem("refund"),
    );
  });

  it("matches a query word's synonyms (sense 1 counts most) and a name word's definition", () => {
    expect(englishLexicon.related(stem("refund")).map(([word]) => word)).toContain(stem("repay"));
    expect(englishLexicon.describe(stem("refund"))).toContain(stem("money"));
    expect(englishLexicon.related(stem("zzqx"))).toEqual([]);
  });

  it("never outranks a tool that names the query's own words", () => {
    expect(top("refund a payment")[0]).toBe("create_refund");
    expect(top("list invoices")[0]).toBe("list_invoices");
    expect(top("create customer")[0]).toBe("create_customer");
  });

  it("reads a verb of several words as one (get rid of → remove, delete), not as its words", () => {
    const projects = [
      tool("cloud", "get_project", "Get the details of a project."),
      tool("cloud", "delete_project", "Delete a project."),
      tool("cloud", "list_projects", "List all projects."),
    ];
    expect(top("get rid of a project", projects)[0]).toBe("delete_project");
    // Without the lexicon "get" is just get.
    expect(top("get rid of a project", projects, { lexicon: false })[0]).toBe("get_project");
  });

  it("takes a caller's own lexicon", () => {
    const lexicon: Lexicon = {
      describe: (word) => (word === "screenshot" ? ["pictur"] : []),
      related: (word) => (word === "snap" ? [["screenshot", 1]] : []),
    };
    expect(top("pictures", shop, { lexicon })[0]).toBe("take_screenshot");
    expect(top("snap", shop, { lexicon })[0]).toBe("take_screenshot");
    expect(top("snap", shop, { lexicon: false })).toEqual([]);
  });
});

describe("parameter values", () => {
  it("finds a tool by the allowed values of its parameters", () => {
    expect(top("slow 3g network")[0]).toBe("emulate");
    expect(top("offline")[0]).toBe("emulate");
  });
});

describe("ranking weights", () => {
  it("a field weighted 0 no longer finds its tools", () => {
    expect(top("intent")[0]).toBe("create_refund");
    expect(top("intent", shop, { weights: { paramNames: 0, paramDescriptions: 0, description: 0 } })).toEqual(
      [],
    );
  });
});
