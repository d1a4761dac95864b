import { fileURLToPath } from "node:url";

export { type ChromiumBinary, chromiumForTests } from "./chromium-binary.js";
export {
  type FaultProxy,
  type ProxiedRequest,
  type ProxyFault,
  startFaultProxy,
} from "./fault-proxy.js";
export { type BrowserStepTool, browserStepTool, type Gate, gate } from "./interaction-fixtures.js";
export { type ManualClock, manualClock } from "./manual-clock.js";
export { PI_STAND_IN, SCRIPTED_MODEL_ID, SCRIPTED_PROVIDER, writePiAgentDir } from "./pi-host.js";
export { createPrivateCa, type PrivateCa } from "./private-ca.js";
export { isProcessAlive, recordedPids, waitForExit } from "./processes.js";
export {
  type ChatMessage,
  type ChatRequest,
  type ScriptEntry,
  type ScriptedModel,
  type ScriptStep,
  startScriptedModel,
  toolResultTexts,
  userMessageTexts,
} from "./scripted-model.js";
export {
  APP_FIXTURE_CONTEXT,
  APP_FIXTURE_MESSAGE,
  APP_FIXTURE_RESOURCE_URI,
  createAppFixtureServer,
} from "./servers/app-fixture-server.js";
export { type BearerProtectedMcp, serveBearerProtectedMcp } from "./servers/bearer-protected-server.js";
export { createClientFeaturesServer } from "./servers/client-features-server.js";
export { type DurableTaskFixture, serveDurableTaskHttp } from "./servers/durable-task-server.js";
export { type FaultHttpServer, type HttpFaultMode, serveHttpFault } from "./servers/fault-http-server.js";
export { faultServerPath, hostileServerPath, minimalServerPath } from "./servers/fault-server-path.js";
export {
  connectInMemory,
  createFixtureServer,
  type FixtureServerOptions,
  type FixtureTool,
  type HttpFixture,
  serveStreamableHttp,
  type ToolCallExtra,
} from "./servers/fixture-server.js";
export {
  COLLIDING_TOOL_NAMES,
  type HostileFault,
  HUGE_DESCRIPTION_BYTES,
  hostileServerOptions,
  LONG_TEXT_BYTES,
  MANY_TOOLS_COUNT,
  serveHostileServer,
} from "./servers/hostile-server.js";
export { hugeAnswerServerPath } from "./servers/huge-answer-server-path.js";
export {
  type OAuthMcpServer,
  type OAuthMcpServerOptions,
  serveOAuthProtectedMcp,
} from "./servers/oauth-authorization-server.js";
export {
  type ResumableHttpFixture,
  type SdkHttpOptions,
  serveResumableHttp,
  serveSdkHttp,
  serveStreamableHttps,
} from "./servers/sdk-http-server.js";
export {
  freePort,
  type ServerEverythingHttp,
  serverEverythingPath,
  startServerEverything,
} from "./servers/server-everything.js";
export {
  FIXTURE_SKILLS,
  MISNAMED_SKILL_ENTRY,
  skillsFixtureServerPath,
  writeSkillsFixture,
} from "./servers/skills-fixture.js";
export { CHROMIUM_MISSING, keytarUnavailableReason, skipNotice } from "./skip-reasons.js";
export { createTempDir, type TempDir } from "./temp-dir.js";
export { terminalEnv } from "./terminal-env.js";
export { answerTo, readWireLog, type WireLogEntry, wireLogProxyPath } from "./wire-log.js";

/** Absolute path of the stdio fixture server script (run it with `node`). */
export const stdioFixtureServerPath = fileURLToPath(
  new URL("../fixtures/stdio-fixture-server.mjs", import.meta.url),
);

/** Absolute path of the client-features fixture server script (stdio; run it with `node`). */
export const clientFeaturesServerPath = fileURLToPath(
  new URL("../fixtures/client-features-server.mjs", import.meta.url),
);

/** Absolute path of the MCP App fixture server script (stdio; run it with `node`). */
export const appFixtureServerPath = fileURLToPath(
  new URL("../fixtures/app-fixture-server.mjs", import.meta.url),
);

/** Absolute path of a stdio server with one subscribable resource (`note://todo`) that changes with the file `WATCH_FIXTURE_FILE`. */
export const watchFixtureServerPath = fileURLToPath(
  new URL("../fixtures/watch-fixture-server.mjs", import.meta.url),
);

/** Absolute path of the sandbox probe server script (stdio; run it with `node`): tools that write, read and connect. */
export const sandboxProbeServerPath = fileURLToPath(
  new URL("../fixtures/sandbox-probe-server.mjs", import.meta.url),
);

/** Absolute path of a stdio server whose names, descriptions, instructions and errors carry escape sequences. */
export const escapeServerPath = fileURLToPath(new URL("../fixtures/escape-server.mjs", import.meta.url));

/** Absolute path of the display fixture server (stdio): a JSON result, a call with progress that waits, a long prompt. */
export const displayFixtureServerPath = fileURLToPath(
  new URL("../fixtures/display-fixture-server.mjs", import.meta.url),
);
