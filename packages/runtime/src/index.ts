export {
  AdapterRuntime,
  type AdapterRuntimeOptions,
  type CatalogView,
  type ListingChangeReason,
  type ListingListener,
  MAX_PARALLEL_DISCOVERY,
} from "./adapter-runtime.js";
export {
  type CallObserver,
  type CallOutcome,
  type CallRecord,
  ObserverList,
} from "./calls/call-observers.js";
export {
  CallPipeline,
  type CallPipelineOptions,
  type CallRequest,
  type CallSettings,
} from "./calls/call-pipeline.js";
export { type CallResult, textResult } from "./calls/call-result.js";
export {
  approvalOrigin,
  type CallKind,
  type CallOrigin,
  type CallTarget,
  kindOf,
} from "./calls/call-target.js";
export { checkArguments } from "./calls/check-arguments.js";
export { type RuntimeUiOptions, UI_CONSENT_ALLOW, UI_CONSENT_DENY } from "./calls/ui-apps.js";
export { expandUriTemplate, uriTemplateVariables } from "./calls/uri-template.js";
export {
  type DirectExposure,
  type DirectSelection,
  type DirectTool,
  type DirectToolPlan,
  type DirectToolSettings,
  directSelection,
  directToolSettings,
  type PlanInput,
  planDirectTools,
  serversNeedingListing,
} from "./catalog/direct-tools.js";
export { openMetadataCache } from "./catalog/metadata-cache-file.js";
export {
  type CompletionPoint,
  completionPoint,
  type PromptArgumentsResult,
  parsePromptArguments,
  promptUsage,
  quoteWord,
  splitCommandLine,
} from "./catalog/prompt-arguments.js";
export {
  formatPromptList,
  type PromptEntry,
  promptCommandName,
  promptEntries,
} from "./catalog/prompt-catalog.js";
export { promptUserMessage, type UserMessagePart } from "./catalog/prompt-message.js";
export { type ListedServer, listServer } from "./catalog/server-listing.js";
export { type ListingSource, ToolCatalog, type ToolCatalogOptions } from "./catalog/tool-catalog.js";
export { type ClientHandlerSettings, clientHandlersFor } from "./client-features/client-handlers.js";
export {
  elicitationHandler,
  explainUrlElicitationRequired,
  runUrlElicitation,
  URL_DECLINE,
  URL_ELICITATION_REQUIRED,
  URL_OPEN,
  URL_OPEN_MYSELF,
  type UrlElicitation,
  urlElicitationsOf,
} from "./client-features/elicitation-flow.js";
export {
  checkTextAnswer,
  type EnumOption,
  FORM_REVIEW,
  FORM_START,
  type FormField,
  FormSchemaError,
  LEAVE_EMPTY,
  MULTI_DONE,
  parseFormSchema,
  runElicitationForm,
} from "./client-features/elicitation-form.js";
export {
  checkElicitationUrl,
  type RefusedElicitationUrl,
  type SafeElicitationUrl,
} from "./client-features/elicitation-url.js";
export {
  cutAtStopSequence,
  INVALID_PARAMS,
  pickModelByHints,
  SAMPLING_CHOICES,
  type SamplingHandlerOptions,
  SamplingRefusal,
  samplingHandler,
  samplingRequestFrom,
  USER_REJECTED,
} from "./client-features/sampling-flow.js";
export { SamplingUsage, type SamplingUsageEntry } from "./client-features/sampling-usage.js";
export { SessionRoots } from "./client-features/session-roots.js";
export {
  createRuntime,
  loadRuntimeConfig,
  NPX_CACHE_FILE_NAME,
  PACKAGE_VERSION,
  type RuntimeSource,
} from "./create-runtime.js";
export {
  type FormatOptions,
  formatDescribe,
  formatInstructions,
  formatSearch,
  formatServerDetails,
  formatStatus,
} from "./format/format.js";
export {
  type DialogOptions,
  type Host,
  type HostDialogs,
  type HostSampler,
  headlessHost,
  NO_DIALOGS,
  type NoticeLevel,
  type SamplingRequest,
  type SamplingResponse,
} from "./host.js";
export {
  createOAuthWiring,
  type OAuthSettings,
  type OAuthWiring,
  type OAuthWiringOptions,
  usesOAuth,
} from "./oauth/oauth-wiring.js";
export { createRuntimeOAuth, type RuntimeOAuthHooks } from "./oauth/runtime-oauth.js";
export { sessionObservers } from "./observability/session-observers.js";
export {
  CallStats,
  type CallStatsOptions,
  formatStats,
  STATS_LATENCY_SAMPLES,
  type ToolStats,
  type ToolStatsSummary,
} from "./observability/stats-observer.js";
export {
  emptyStatusSnapshot,
  MCP_STATUS_EVENT,
  type McpServerState,
  type McpServerStatus,
  type McpStatusSnapshot,
  type ServerSummary,
  type StatusSource,
  statusSnapshot,
  watchStatus,
} from "./observability/status-events.js";
export {
  DEFAULT_TRACE_DIR,
  DEFAULT_TRACE_MAX_BYTES,
  DEFAULT_TRACE_MAX_EVENTS,
  SessionTrace,
  type TraceEvent,
  type TraceEventType,
  type TraceOptions,
} from "./observability/trace-observer.js";
export { DEBUG_STDERR_LINES, formatDebugStderr } from "./servers/stderr-tails.js";
export {
  loadStartupSnapshot,
  type SnapshotServer,
  type StartupSnapshot,
  type StartupSnapshotSource,
} from "./startup/startup-snapshot.js";
export {
  NOT_SUPPORTED_YET,
  UNSUPPORTED_SERVER_KEYS,
  UNSUPPORTED_SETTINGS,
  unsupportedSettingProblems,
} from "./startup/unsupported-settings.js";
export { OUTPUT_SHAPES_FILE_NAME, type OutputShape, OutputShapes } from "./tools/output-shapes.js";
export {
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  runProxyRequest,
  UI_MESSAGES_ACTION,
} from "./tools/proxy-request.js";
export {
  runScriptRequest,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
  scriptHostFor,
} from "./tools/script-request.js";
