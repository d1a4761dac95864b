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
} from "./call-observers.js";
export {
  CallPipeline,
  type CallPipelineOptions,
  type CallRequest,
  type CallSettings,
} from "./call-pipeline.js";
export { type CallResult, textResult } from "./call-result.js";
export {
  approvalOrigin,
  type CallKind,
  type CallOrigin,
  type CallTarget,
  kindOf,
} from "./call-target.js";
export { checkArguments } from "./check-arguments.js";
export { type ClientHandlerSettings, clientHandlersFor } from "./client-handlers.js";
export {
  createRuntime,
  loadRuntimeConfig,
  NPX_CACHE_FILE_NAME,
  PACKAGE_VERSION,
  type RuntimeSource,
} from "./create-runtime.js";
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
} from "./direct-tools.js";
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
} from "./elicitation-flow.js";
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
} from "./elicitation-form.js";
export {
  checkElicitationUrl,
  type RefusedElicitationUrl,
  type SafeElicitationUrl,
} from "./elicitation-url.js";
export {
  type FormatOptions,
  formatDescribe,
  formatInstructions,
  formatSearch,
  formatServerDetails,
  formatStatus,
} from "./format.js";
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
export { openMetadataCache } from "./metadata-cache-file.js";
export {
  createOAuthWiring,
  type OAuthSettings,
  type OAuthWiring,
  type OAuthWiringOptions,
  usesOAuth,
} from "./oauth-wiring.js";
export { OUTPUT_SHAPES_FILE_NAME, type OutputShape, OutputShapes } from "./output-shapes.js";
export {
  type CompletionPoint,
  completionPoint,
  type PromptArgumentsResult,
  parsePromptArguments,
  promptUsage,
  quoteWord,
  splitCommandLine,
} from "./prompt-arguments.js";
export { formatPromptList, type PromptEntry, promptCommandName, promptEntries } from "./prompt-catalog.js";
export { promptUserMessage, type UserMessagePart } from "./prompt-message.js";
export {
  PROXY_TOOL_DESCRIPTION,
  PROXY_TOOL_NAME,
  PROXY_TOOL_PARAMETERS,
  type ProxyParams,
  runProxyRequest,
  UI_MESSAGES_ACTION,
} from "./proxy-request.js";
export { createRuntimeOAuth, type RuntimeOAuthHooks } from "./runtime-oauth.js";
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
} from "./sampling-flow.js";
export { SamplingUsage, type SamplingUsageEntry } from "./sampling-usage.js";
export {
  runScriptRequest,
  SCRIPT_TOOL_DESCRIPTION,
  SCRIPT_TOOL_NAME,
  SCRIPT_TOOL_PARAMETERS,
  scriptHostFor,
} from "./script-request.js";
export { type ListedServer, listServer } from "./server-listing.js";
export { sessionObservers } from "./session-observers.js";
export { SessionRoots } from "./session-roots.js";
export {
  loadStartupSnapshot,
  type SnapshotServer,
  type StartupSnapshot,
  type StartupSnapshotSource,
} from "./startup-snapshot.js";
export {
  CallStats,
  type CallStatsOptions,
  formatStats,
  STATS_LATENCY_SAMPLES,
  type ToolStats,
  type ToolStatsSummary,
} from "./stats-observer.js";
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
} from "./status-events.js";
export { DEBUG_STDERR_LINES, formatDebugStderr } from "./stderr-tails.js";
export { type ListingSource, ToolCatalog, type ToolCatalogOptions } from "./tool-catalog.js";
export {
  DEFAULT_TRACE_DIR,
  DEFAULT_TRACE_MAX_BYTES,
  DEFAULT_TRACE_MAX_EVENTS,
  SessionTrace,
  type TraceEvent,
  type TraceEventType,
  type TraceOptions,
} from "./trace-observer.js";
export { type RuntimeUiOptions, UI_CONSENT_ALLOW, UI_CONSENT_DENY } from "./ui-apps.js";
export {
  NOT_SUPPORTED_YET,
  UNSUPPORTED_SERVER_KEYS,
  UNSUPPORTED_SETTINGS,
  unsupportedSettingProblems,
} from "./unsupported-settings.js";
export { expandUriTemplate, uriTemplateVariables } from "./uri-template.js";
