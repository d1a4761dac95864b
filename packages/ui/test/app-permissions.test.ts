/**
 * `_meta.ui.permissions` → the iframe's `allow` and the note about refused
 * permissions; an app message → the text a turn starts with.
 */
import { describe, expect, it } from "vitest";
import { appPermissions, refusedPermissionsNote, type UiMessage, uiMessageTurnText } from "../src/index.js";

describe("app permissions", () => {
  it("grants clipboard writes, refuses devices and unknown names", () => {
    const mapped = appPermissions({
      ui: {
        permissions: {
          clipboardWrite: {},
          camera: {},
          microphone: {},
          geolocation: {},
          "bad name\u001b[2J": {},
        },
      },
    });
    expect(mapped).toEqual({
      allow: "clipboard-write",
      granted: { clipboardWrite: {} },
      refused: ["camera", "microphone", "geolocation", "an unnamed permission"],
    });
    expect(refusedPermissionsNote("The x app (t)", mapped.refused)).toBe(
      "The x app (t) asked for camera, microphone, geolocation, an unnamed permission: not granted (apps here may only write to the clipboard; use the server's own client for device access)",
    );
  });

  it("no permissions, or a malformed field, grant nothing and need no note", () => {
    for (const meta of [
      undefined,
      {},
      { ui: {} },
      { ui: { permissions: ["camera"] } },
      { ui: { permissions: "all" } },
    ]) {
      expect(appPermissions(meta)).toEqual({ allow: "", granted: {}, refused: [] });
    }
    expect(refusedPermissionsNote("The x app (t)", [])).toBeUndefined();
  });
});

describe("the turn an app message starts", () => {
  const message = (type: UiMessage["type"], payload: unknown): UiMessage => ({
    type,
    payload,
    sessionId: "s1",
    serverName: "board",
    toolName: "show_board",
    timestamp: "2026-12-01T00:00:00.000Z",
  });

  it("a ui/message gives its text blocks; a prompt its text; an intent is named with its params", () => {
    const ui = message("message", {
      role: "user",
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "x" },
        { type: "text", text: "second" },
      ],
    });
    expect(uiMessageTurnText(ui)).toBe("first\nsecond");
    expect(uiMessageTurnText(message("prompt", { prompt: "Summarise the board" }))).toBe(
      "Summarise the board",
    );
    expect(uiMessageTurnText(message("intent", { intent: "celebrate", params: { confetti: true } }))).toBe(
      'The board app (show_board) asks for: celebrate {"confetti":true}',
    );
  });

  it("notify, close, and messages without text start nothing", () => {
    expect(uiMessageTurnText(message("notify", { message: "hi" }))).toBeUndefined();
    expect(uiMessageTurnText(message("close", { reason: "complete" }))).toBeUndefined();
    expect(
      uiMessageTurnText(message("message", { role: "user", content: [{ type: "image" }] })),
    ).toBeUndefined();
    expect(uiMessageTurnText(message("prompt", { prompt: "  " }))).toBeUndefined();
    expect(uiMessageTurnText(message("intent", {}))).toBeUndefined();
  });
});
