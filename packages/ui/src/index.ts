export { type AppCspDomains, appCsp, cspDomainsOf } from "./app-csp.js";
export {
  type AppPermissionRequest,
  type AppPermissions,
  appPermissions,
  refusedPermissionsNote,
} from "./app-permissions.js";
export type { UiModelContext } from "./app-window.js";
export { UiError, type UiErrorCode } from "./errors.js";
export { isLoopback } from "./loopback-server.js";
export { openInBrowser, type SpawnOpener } from "./open-browser.js";
export {
  type AskToolConsent,
  ToolConsent,
  type ToolConsentMode,
  type ToolConsentRequest,
  toolConsentMode,
  UI_TOOL_CONSENT_ENV,
} from "./tool-consent.js";
export type { UiBackend, UiResourceContent, UiToolCall, UiToolResult } from "./ui-backend.js";
export {
  formatUiMessages,
  MAX_QUEUED_UI_MESSAGES,
  type UiMessage,
  UiMessageQueue,
  type UiMessageType,
  uiMessageTurnText,
} from "./ui-messages.js";
export { type ShownApp, UiViewer, type UiViewerOptions } from "./ui-viewer.js";
export {
  browserAvailable,
  UI_VIEWER_ENV,
  type UiViewerChoice,
  type UiViewerMode,
  uiViewerMode,
} from "./viewer-mode.js";
