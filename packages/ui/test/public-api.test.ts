/**
 * The package's public face is a decision, not an accident: every name an
 * entry point exports (values and types) must be listed here. Adding an
 * export fails this test until the name is added below, on purpose; a name
 * that leaves must leave the list too.
 */
import { publicApiDiff } from "@pi-mcp-adapter/test-kit/public-api";
import { describe, expect, it } from "vitest";

/** `@pi-mcp-adapter/ui` (src/index.ts). */
const ROOT = [
  "AppCspDomains",
  "AppPermissionRequest",
  "AppPermissions",
  "AskToolConsent",
  "MAX_QUEUED_UI_MESSAGES",
  "ShownApp",
  "SpawnOpener",
  "ToolConsent",
  "ToolConsentMode",
  "ToolConsentRequest",
  "UI_TOOL_CONSENT_ENV",
  "UI_VIEWER_ENV",
  "UiBackend",
  "UiError",
  "UiErrorCode",
  "UiMessage",
  "UiMessageQueue",
  "UiMessageType",
  "UiModelContext",
  "UiResourceContent",
  "UiToolCall",
  "UiToolResult",
  "UiViewer",
  "UiViewerChoice",
  "UiViewerMode",
  "UiViewerOptions",
  "appCsp",
  "appPermissions",
  "browserAvailable",
  "cspDomainsOf",
  "formatUiMessages",
  "isLoopback",
  "openInBrowser",
  "refusedPermissionsNote",
  "toolConsentMode",
  "uiMessageTurnText",
  "uiViewerMode",
];

/** `@pi-mcp-adapter/ui/viewer-mode` (src/viewer-mode.ts). */
const VIEWER_MODE = ["UI_VIEWER_ENV", "UiViewerChoice", "UiViewerMode", "browserAvailable", "uiViewerMode"];

const NONE = { unlisted: [], missing: [] };

describe("public API", () => {
  it("@pi-mcp-adapter/ui exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/index.ts", import.meta.url), ROOT)).toEqual(NONE);
  });

  it("@pi-mcp-adapter/ui/viewer-mode exports exactly the listed names", () => {
    expect(publicApiDiff(new URL("../src/viewer-mode.ts", import.meta.url), VIEWER_MODE)).toEqual(NONE);
  });
});
