/** The plan of ConnectionManager.replace (pure: no server runs) and the manager's event emitter. */

import type { ServerDefinition } from "@pi-mcp-adapter/core";
import { describe, expect, it } from "vitest";
import { Emitter } from "../../src/lifecycle/manager-events.js";
import { planReplace, replaceReport } from "../../src/lifecycle/replace-plan.js";
import { definition } from "../helpers.js";

const stdio = (name: string, command: string, disabled?: boolean) =>
  definition({ name, transport: "stdio", command, ...(disabled ? { disabled } : {}) });
const held = (...definitions: ServerDefinition[]) => new Map(definitions.map((d) => [d.name, d]));

describe("planReplace", () => {
  it("sorts each listed server into added, kept, redefined or toggled, in list order, and names the removed", () => {
    const current = held(stdio("gone", "a"), stdio("same", "b"), stdio("moved", "c"), stdio("off", "d"));
    const plan = planReplace(current, [
      stdio("off", "d", true),
      stdio("new", "e"),
      stdio("moved", "c2"),
      stdio("same", "b"),
    ]);
    expect(plan.removed).toEqual(["gone"]);
    expect(plan.steps.map((step) => [step.definition.name, step.kind])).toEqual([
      ["off", "toggled"],
      ["new", "added"],
      ["moved", "redefined"],
      ["same", "kept"],
    ]);
    expect(replaceReport(plan)).toEqual({
      added: ["new"],
      removed: ["gone"],
      redefined: ["moved"],
      toggled: ["off"],
    });
  });

  it("compares a name listed twice with its earlier listing", () => {
    const plan = planReplace(held(), [stdio("twice", "a"), stdio("twice", "b")]);
    expect(plan.steps.map((step) => step.kind)).toEqual(["added", "redefined"]);
  });
});

describe("Emitter", () => {
  it("calls every listener of the event even when one throws, and stops after unsubscribe", () => {
    const events = new Emitter<{ tick: (n: number) => void; other: () => void }>();
    const heard: number[] = [];
    events.on("tick", () => {
      throw new Error("listener bug");
    });
    const off = events.on("tick", (n) => heard.push(n));
    events.on("other", () => heard.push(-1));
    events.emit("tick", 1);
    off();
    events.emit("tick", 2);
    expect(heard).toEqual([1]);
  });
});
