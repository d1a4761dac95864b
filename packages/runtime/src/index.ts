/**
 * The public face of `@pi-mcp-adapter/runtime`: what a host (the Pi shell,
 * the CLI, another program) needs to run the adapter without Pi.
 *
 * Every name exported here is public API: adding one is a decision, and
 * `test/public-api.test.ts` fails until the name is also listed there.
 * Everything else under `src/` is internal and may change in any release;
 * the package's own tests import internals by path.
 *
 * What is here, by use:
 * - build a runtime: `createRuntime` (from config files) or `AdapterRuntime`
 *   (from definitions and a ready `connect`), and the `Host` it talks to;
 * - calls and their typed outcomes, the proxy tool's dispatch;
 * - the types the runtime's sub-objects hand out;
 * - the error family.
 * What a host needs before any server runs (the startup snapshot, tool
 * declarations, direct-tool planning, status and other texts) is the
 * `@pi-mcp-adapter/runtime/startup` entry, pinned by the same test.
 */

// Building a runtime, and the host it runs in.
export { AdapterRuntime } from "./adapter-runtime.js";
// Calls: what goes in, what comes out, who watches.
export type { CallRequest } from "./calls/call-pipeline.js";
export type { CallResult, HostOutcome } from "./calls/call-result.js";
export type { CallTarget } from "./calls/call-target.js";
// What the catalog hands out (`runtime.catalog.view()`), and how many servers it lists at once.
export { type CatalogView, MAX_PARALLEL_DISCOVERY } from "./catalog/listings.js";
export { createRuntime, type RuntimeSource } from "./create-runtime.js";
export { RuntimeError, type RuntimeErrorCode } from "./errors.js";
export { type Host, type HostSampler, headlessHost, type SamplingResponse } from "./host.js";
export type { RuntimeOAuthHooks } from "./oauth/runtime-oauth.js";
export type { CallObserver, CallRecord } from "./observability/call-observers.js";
export type { AdapterRuntimeOptions } from "./runtime-options.js";
export { warmUpSearch } from "./startup/search-warm-up.js";
// The model-facing tools (their declarations and mcpScript's dispatch are in `./startup`).
export { runProxyRequest } from "./tools/proxy-request.js";
export { runSkillRequest } from "./tools/skill-request.js";
export type { ProxyDetails, ProxyOutcome } from "./tools/tool-outcomes.js";
