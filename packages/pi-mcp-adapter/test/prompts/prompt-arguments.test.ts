import { describe, expect, it } from "vitest";
import {
  completionPoint,
  parsePromptArguments,
  promptUsage,
  quoteWord,
  splitCommandLine,
} from "../../src/prompts/prompt-arguments.js";

const argsPrompt = {
  name: "args-prompt",
  arguments: [
    { name: "city", description: "Name of the city", required: true },
    { name: "state", required: false },
  ],
};

describe("splitCommandLine", () => {
  it("splits on spaces and honours quotes and backslashes like a shell", () => {
    expect(splitCommandLine(`  Paris  "New York" 'it''s' a\\ b "say \\"hi\\"" x=""`)).toEqual([
      "Paris",
      "New York",
      "its",
      "a b",
      'say "hi"',
      "x=",
    ]);
    expect(splitCommandLine(`city="San Francisco" 'back\\slash'`)).toEqual([
      "city=San Francisco",
      "back\\slash",
    ]);
  });
});

describe("parsePromptArguments", () => {
  it("fills positional values in declared order and key=value by name, in any mix", () => {
    expect(parsePromptArguments("Paris", argsPrompt)).toEqual({ ok: true, args: { city: "Paris" } });
    expect(parsePromptArguments(`"Des Moines" Iowa`, argsPrompt)).toEqual({
      ok: true,
      args: { city: "Des Moines", state: "Iowa" },
    });
    expect(parsePromptArguments(`state=Texas Austin`, argsPrompt)).toEqual({
      ok: true,
      args: { city: "Austin", state: "Texas" },
    });
    // A word whose key is no argument is a value: "a=b" can be a city name.
    expect(parsePromptArguments(`a=b`, argsPrompt)).toEqual({ ok: true, args: { city: "a=b" } });
  });

  it("names missing required arguments and shows the usage", () => {
    const result = parsePromptArguments("state=Ohio", argsPrompt, "mcp__everything__args-prompt");
    expect(result).toEqual({
      ok: false,
      message:
        "Prompt args-prompt needs argument city. Usage: /mcp__everything__args-prompt <city> [state] (or by name: city=… state=…)",
    });
  });

  it("refuses more values than the prompt has arguments", () => {
    const result = parsePromptArguments("a b c", argsPrompt);
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toMatch(
      /^Prompt args-prompt takes more values than it has arguments \(got "c"\)/,
    );
    expect(parsePromptArguments("x", { name: "simple" })).toEqual({
      ok: false,
      message: 'Prompt simple takes no arguments (got "x"). Usage: /simple',
    });
  });

  it("writes the usage with required <names> and optional [names]", () => {
    expect(promptUsage("p", argsPrompt)).toBe("/p <city> [state] (or by name: city=… state=…)");
  });
});

describe("completionPoint", () => {
  const team = {
    arguments: [
      { name: "department", required: true },
      { name: "name", required: true },
    ],
  };

  it("completes the next positional argument, with earlier values as context", () => {
    expect(completionPoint("", team)).toEqual({
      argument: "department",
      value: "",
      context: {},
      head: "",
      key: "",
    });
    expect(completionPoint("Eng", team)).toMatchObject({ argument: "department", value: "Eng", head: "" });
    expect(completionPoint("Engineering A", team)).toEqual({
      argument: "name",
      value: "A",
      context: { department: "Engineering" },
      head: "Engineering ",
      key: "",
    });
  });

  it("completes a key=value word by its key, and says nothing past the last argument", () => {
    expect(completionPoint("name=B department=S", team)).toEqual({
      argument: "department",
      value: "S",
      context: { name: "B" },
      head: "name=B ",
      key: "department=",
    });
    expect(completionPoint("Sales Eve ", team)).toBeUndefined();
  });

  it("quotes a completed value only when it needs it", () => {
    expect(quoteWord("Sales")).toBe("Sales");
    expect(quoteWord("New York")).toBe('"New York"');
  });
});
