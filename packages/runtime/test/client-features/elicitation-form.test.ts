import { describe, expect, it } from "vitest";
import {
  checkTextAnswer,
  FORM_REVIEW,
  FORM_START,
  type FormField,
  FormSchemaError,
  LEAVE_EMPTY,
  MULTI_DONE,
  parseFormSchema,
  runElicitationForm,
} from "../../src/client-features/elicitation-form.js";
import type { HostDialogs } from "../../src/host.js";

interface Asked {
  kind: "select" | "input" | "confirm";
  title: string;
  choices?: string[];
  placeholder?: string;
}

/** A user who answers each dialog with the next scripted answer (`undefined` dismisses it). */
function scriptedUser(answers: (string | boolean | undefined)[]): { dialogs: HostDialogs; asked: Asked[] } {
  const asked: Asked[] = [];
  const next = () => {
    if (answers.length === 0) throw new Error(`no answer left for dialog: ${JSON.stringify(asked.at(-1))}`);
    return answers.shift();
  };
  return {
    asked,
    dialogs: {
      select: async (title, choices) => {
        asked.push({ kind: "select", title, choices });
        return next() as string | undefined;
      },
      input: async (title, placeholder) => {
        asked.push({ kind: "input", title, placeholder });
        return next() as string | undefined;
      },
      confirm: async (title, message) => {
        asked.push({ kind: "confirm", title: `${title}\n${message}` });
        return next() as boolean;
      },
    },
  };
}

const field = (schema: Record<string, unknown>, required = false): FormField =>
  parseFormSchema({ type: "object", properties: { f: schema }, required: required ? ["f"] : [] })[0]!;

describe("parseFormSchema", () => {
  it("maps every primitive field type", () => {
    const fields = parseFormSchema({
      type: "object",
      properties: {
        name: {
          type: "string",
          title: "Name",
          description: "Your name",
          minLength: 2,
          maxLength: 5,
          default: "Ada",
        },
        email: { type: "string", format: "email" },
        age: { type: "integer", minimum: 0, maximum: 150, default: 30 },
        ratio: { type: "number" },
        ok: { type: "boolean", default: true },
        color: { type: "string", enum: ["r", "g"], enumNames: ["Red", "Green"], default: "g" },
        hero: { type: "string", oneOf: [{ const: "h1", title: "Superman" }] },
        tags: { type: "array", items: { enum: ["a", "b"] }, minItems: 1, maxItems: 2, default: ["a"] },
        fish: { type: "array", items: { anyOf: [{ const: "f1", title: "Tuna" }] } },
      },
      required: ["name"],
    });
    expect(fields).toEqual([
      {
        key: "name",
        label: "Name",
        description: "Your name",
        required: true,
        kind: "string",
        minLength: 2,
        maxLength: 5,
        default: "Ada",
      },
      { key: "email", label: "email", required: false, kind: "string", format: "email" },
      {
        key: "age",
        label: "age",
        required: false,
        kind: "number",
        integer: true,
        minimum: 0,
        maximum: 150,
        default: 30,
      },
      { key: "ratio", label: "ratio", required: false, kind: "number", integer: false },
      { key: "ok", label: "ok", required: false, kind: "boolean", default: true },
      {
        key: "color",
        label: "color",
        required: false,
        kind: "enum",
        options: [
          { value: "r", label: "Red" },
          { value: "g", label: "Green" },
        ],
        default: "g",
      },
      {
        key: "hero",
        label: "hero",
        required: false,
        kind: "enum",
        options: [{ value: "h1", label: "Superman" }],
      },
      {
        key: "tags",
        label: "tags",
        required: false,
        kind: "multi",
        options: [
          { value: "a", label: "a" },
          { value: "b", label: "b" },
        ],
        minItems: 1,
        maxItems: 2,
        default: ["a"],
      },
      {
        key: "fish",
        label: "fish",
        required: false,
        kind: "multi",
        options: [{ value: "f1", label: "Tuna" }],
      },
    ]);
  });

  it("refuses what is not a flat form, naming the field", () => {
    expect(() => parseFormSchema({ type: "array" })).toThrow("requestedSchema must be an object schema");
    expect(() => parseFormSchema({ type: "object", properties: { x: { type: "object" } } })).toThrow(
      'requestedSchema.properties.x: type "object" is not a form field',
    );
    expect(() =>
      parseFormSchema({ type: "object", properties: { x: { type: "string", format: "ipv4" } } }),
    ).toThrow('requestedSchema.properties.x: format "ipv4" is not one of email, uri, date, date-time');
    expect(() =>
      parseFormSchema({ type: "object", properties: { x: { type: "array", items: { type: "string" } } } }),
    ).toThrow("requestedSchema.properties.x: an array field must list its choices");
    try {
      parseFormSchema({ type: "object", properties: { x: 1 } });
    } catch (error) {
      expect(error).toBeInstanceOf(FormSchemaError);
      expect((error as FormSchemaError).code).toBe(-32602);
    }
  });
});

describe("checkTextAnswer", () => {
  const text = (schema: Record<string, unknown>, value: string) =>
    checkTextAnswer(field({ type: "string", ...schema }) as Extract<FormField, { kind: "string" }>, value);
  const num = (schema: Record<string, unknown>, value: string) =>
    checkTextAnswer(field({ type: "number", ...schema }) as Extract<FormField, { kind: "number" }>, value);

  it("checks string lengths", () => {
    expect(text({ minLength: 3 }, "ab")).toEqual({ error: "must be at least 3 characters" });
    expect(text({ maxLength: 3 }, "abcd")).toEqual({ error: "must be at most 3 characters" });
    expect(text({ minLength: 1, maxLength: 3 }, "abc")).toEqual({ value: "abc" });
  });

  it("checks email, uri, date and date-time formats", () => {
    expect(text({ format: "email" }, "ada@example.com")).toEqual({ value: "ada@example.com" });
    expect(text({ format: "email" }, "ada@example")).toHaveProperty("error");
    expect(text({ format: "email" }, "ada example.com")).toHaveProperty("error");
    expect(text({ format: "uri" }, "https://ada.dev/x")).toEqual({ value: "https://ada.dev/x" });
    expect(text({ format: "uri" }, "urn:isbn:0451450523")).toEqual({ value: "urn:isbn:0451450523" });
    expect(text({ format: "uri" }, "ada.dev")).toEqual({
      error: "enter a URI with a scheme (https://example.com)",
    });
    expect(text({ format: "date" }, "2024-02-29")).toEqual({ value: "2024-02-29" });
    expect(text({ format: "date" }, "2023-02-29")).toEqual({ error: "enter a date as YYYY-MM-DD" });
    expect(text({ format: "date" }, "29.02.2024")).toHaveProperty("error");
    expect(text({ format: "date-time" }, "2024-05-01T10:20:30Z")).toEqual({ value: "2024-05-01T10:20:30Z" });
    expect(text({ format: "date-time" }, "2024-05-01T10:20:30.5+02:00")).toHaveProperty("value");
    expect(text({ format: "date-time" }, "2024-05-01 10:20")).toHaveProperty("error");
    expect(text({ format: "date-time" }, "2024-13-01T10:20:30Z")).toHaveProperty("error");
  });

  it("checks numbers, integers and bounds", () => {
    expect(num({}, "3.5")).toEqual({ value: 3.5 });
    expect(num({}, "abc")).toEqual({ error: "enter a number" });
    expect(num({}, "Infinity")).toEqual({ error: "enter a number" });
    expect(
      checkTextAnswer(field({ type: "integer" }) as Extract<FormField, { kind: "number" }>, "2.5"),
    ).toEqual({
      error: "enter a whole number",
    });
    expect(num({ minimum: 1 }, "0")).toEqual({ error: "must be at least 1" });
    expect(num({ maximum: 10 }, "11")).toEqual({ error: "must be at most 10" });
    expect(num({ minimum: 1, maximum: 10 }, " 10 ")).toEqual({ value: 10 });
  });
});

describe("runElicitationForm", () => {
  const schema = {
    type: "object",
    properties: {
      name: { type: "string", title: "Name", minLength: 2 },
      email: { type: "string", format: "email" },
      age: { type: "integer", minimum: 1, maximum: 120, default: 42 },
      agree: { type: "boolean", title: "Agree" },
      color: { type: "string", enum: ["red", "green"], enumNames: ["Red", "Green"], default: "green" },
      tags: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 1, maxItems: 2, default: ["a"] },
    },
    required: ["name"],
  };

  it("asks each field with the server named, re-asks bad answers, reviews, then accepts", async () => {
    const { dialogs, asked } = scriptedUser([
      FORM_START[0],
      "A", // too short
      "Ada",
      "not-an-email",
      "ada@example.com",
      "", // age: the default
      true,
      "Red",
      "[ ] b",
      "[ ] c", // three chosen: too many
      MULTI_DONE,
      "[x] a",
      MULTI_DONE,
      "Send",
    ]);
    const result = await runElicitationForm(dialogs, "shop", "Who are you?", schema);
    expect(result).toEqual({
      action: "accept",
      content: {
        name: "Ada",
        email: "ada@example.com",
        age: 42,
        agree: true,
        color: "red",
        tags: ["b", "c"],
      },
    });
    expect(asked.every((a) => a.title.includes('MCP server "shop"'))).toBe(true);
    expect(asked[0]).toEqual({
      kind: "select",
      title: 'MCP server "shop" asks for input:\nWho are you?',
      choices: [...FORM_START],
    });
    expect(asked[2]!.title).toContain('⚠ "A": must be at least 2 characters');
    expect(asked[4]!.title).toContain('⚠ "not-an-email": enter an email address');
    expect(asked[5]).toMatchObject({ kind: "input", placeholder: "default: 42" });
    expect(asked[5]!.title).toContain("a whole number from 1 to 120");
    expect(asked[7]!.choices).toEqual(["Green (default)", "Red", LEAVE_EMPTY]);
    expect(asked[8]!.choices).toEqual(["[x] a", "[ ] b", "[ ] c", MULTI_DONE]);
    expect(asked[11]!.title).toContain("⚠ choose at most 2");
    const review = asked.at(-1)!;
    expect(review.choices).toEqual([...FORM_REVIEW]);
    expect(review.title).toContain("  email: ada@example.com");
    expect(review.title).toContain("  color: Red");
    expect(review.title).toContain("  tags: b, c");
    expect(review.title).toContain("  Agree: yes");
  });

  it("leaves optional fields out and keeps defaults on empty answers", async () => {
    const { dialogs } = scriptedUser([FORM_START[0], "Bo", "", "", false, LEAVE_EMPTY, MULTI_DONE, "Send"]);
    const result = await runElicitationForm(dialogs, "s", "m", schema);
    expect(result).toEqual({ action: "accept", content: { name: "Bo", age: 42, agree: false, tags: ["a"] } });
  });

  it("re-asks a required field left empty", async () => {
    const { dialogs, asked } = scriptedUser([
      FORM_START[0],
      "",
      "Cy",
      "",
      "",
      false,
      LEAVE_EMPTY,
      MULTI_DONE,
      "Send",
    ]);
    await runElicitationForm(dialogs, "s", "m", schema);
    expect(asked[2]!.title).toContain("⚠ required: enter a value");
  });

  it("'Edit answers' asks again with the earlier answers as defaults", async () => {
    const first = ["Ada", "", "", true, "Red", MULTI_DONE];
    const second = ["", "", "7", true, "Red (default)", MULTI_DONE];
    const { dialogs, asked } = scriptedUser([FORM_START[0], ...first, "Edit answers", ...second, "Send"]);
    const result = await runElicitationForm(dialogs, "s", "m", schema);
    expect(result).toEqual({
      action: "accept",
      content: { name: "Ada", age: 7, agree: true, color: "red", tags: ["a"] },
    });
    expect(asked[8]).toMatchObject({ kind: "input", placeholder: "default: Ada" });
  });

  it("'Decline' at the start or the review is decline; dismissing any dialog is cancel", async () => {
    expect(await runElicitationForm(scriptedUser(["Decline"]).dialogs, "s", "m", schema)).toEqual({
      action: "decline",
    });
    expect(await runElicitationForm(scriptedUser([undefined]).dialogs, "s", "m", schema)).toEqual({
      action: "cancel",
    });
    expect(
      await runElicitationForm(scriptedUser([FORM_START[0], "Ada", undefined]).dialogs, "s", "m", schema),
    ).toEqual({ action: "cancel" });
    const toReview = [FORM_START[0], "Ada", "", "", true, "Red", MULTI_DONE];
    expect(
      await runElicitationForm(scriptedUser([...toReview, "Decline"]).dialogs, "s", "m", schema),
    ).toEqual({
      action: "decline",
    });
    expect(
      await runElicitationForm(scriptedUser([...toReview, undefined]).dialogs, "s", "m", schema),
    ).toEqual({
      action: "cancel",
    });
    // A dismissed multi-select or enum cancels too.
    const toTags = [FORM_START[0], "Ada", "", "", true, "Red"];
    expect(await runElicitationForm(scriptedUser([...toTags, undefined]).dialogs, "s", "m", schema)).toEqual({
      action: "cancel",
    });
  });

  it("shows server text without terminal control or bidi characters", async () => {
    const { dialogs, asked } = scriptedUser([FORM_START[0], "Ok", "Send"]);
    const result = await runElicitationForm(dialogs, "s", "Hi \u001b[2Jthere\u202e", {
      type: "object",
      properties: { n: { type: "string", title: "Na\u001b[31mme", description: "x\u0007y" } },
    });
    expect(result).toEqual({ action: "accept", content: { n: "Ok" } });
    expect(asked[0]!.title).toBe('MCP server "s" asks for input:\nHi there');
    expect(asked[1]!.title).toBe('MCP server "s" · Name\nxy');
  });

  it("refuses a schema it cannot show before any dialog opens", async () => {
    const { dialogs, asked } = scriptedUser([]);
    await expect(
      runElicitationForm(dialogs, "s", "m", { type: "object", properties: { nested: { type: "object" } } }),
    ).rejects.toThrow(FormSchemaError);
    expect(asked).toEqual([]);
  });
});
