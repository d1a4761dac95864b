import { describe, expect, it } from "vitest";
import { renderSchemaShape } from "../src/index.js";

describe("renderSchemaShape", () => {
  it("renders required and optional properties", () => {
    const schema = {
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer" } },
      required: ["query"],
    };
    expect(renderSchemaShape(schema)).toBe("{ query: string; limit?: number; }");
  });

  it("renders enums as unions, arrays, nested objects, nullable types and defaults", () => {
    const schema = {
      type: "object",
      properties: {
        format: { type: "string", enum: ["png", "jpeg"], default: "png" },
        tags: { type: "array", items: { type: "string" } },
        modes: { type: "array", items: { enum: ["a", "b"] } },
        box: { type: "object", properties: { x: { type: "number" } }, required: ["x"] },
        note: { type: ["string", "null"] },
        "odd-key": { const: 1 },
      },
    };
    expect(renderSchemaShape(schema)).toBe(
      '{ format?: "png" | "jpeg" /* default "png" */; tags?: string[]; modes?: ("a" | "b")[]; ' +
        'box?: { x: number; }; note?: string | null; "odd-key"?: 1; }',
    );
  });

  it("follows $ref within the schema and stops at cycles", () => {
    const schema = {
      type: "object",
      properties: { node: { $ref: "#/$defs/Node" } },
      $defs: {
        Node: { type: "object", properties: { id: { type: "string" }, next: { $ref: "#/$defs/Node" } } },
      },
    };
    expect(renderSchemaShape(schema)).toBe("{ node?: { id?: string; next?: Node; }; }");
  });

  it("renders anyOf, records and unknown shapes", () => {
    expect(renderSchemaShape({ anyOf: [{ type: "string" }, { type: "number" }] })).toBe("string | number");
    expect(renderSchemaShape({ type: "object", additionalProperties: { type: "boolean" } })).toBe(
      "Record<string, boolean>",
    );
    expect(renderSchemaShape({ type: "object" })).toBe("object");
    expect(renderSchemaShape(null)).toBe("unknown");
  });

  it("is bounded in depth and length", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 6; i++) deep = { type: "object", properties: { inner: deep } };
    expect(renderSchemaShape(deep, { maxDepth: 2 })).toBe("{ inner?: { inner?: object; }; }");
    const wide = {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`field${i}`, { type: "string" }]),
      ),
    };
    const text = renderSchemaShape(wide, { maxLength: 80 });
    expect(text).toHaveLength(80);
    expect(text.endsWith("…")).toBe(true);
  });
});
