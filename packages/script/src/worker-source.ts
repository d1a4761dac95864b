/**
 * The worker's program, as source text. It runs with `eval: true`, so no
 * separate worker file has to be found next to the compiled package (the
 * path differs between `src` under test, `dist`, and a bundled extension).
 *
 * Inside the worker the script runs in a fresh `vm` context whose only
 * globals are `tools`, `emit`, `console`, `setTimeout` and `clearTimeout`
 * (plus the language's own built-ins). Those are defined by a bootstrap
 * evaluated inside the context, and it talks to the worker only in JSON
 * strings: no object of the worker's realm is reachable from the script,
 * so `tools.call.constructor` is the context's `Function`, and string code
 * generation (`eval`, `new Function`) is off in the context.
 *
 * Messages (JSON strings both ways, so the host can count their bytes):
 *   worker → host: request {id, op, payload} · emit {value} · console {level, text}
 *                  · done {value} · failed {name, message}
 *   host → worker: response {id, value} | {id, error}
 */

/** Evaluated inside the vm context; returns the context's side of the bridge. */
const BOOTSTRAP = `(function (send) {
  "use strict";
  const pending = new Map();
  const timers = new Map();
  let nextId = 1;
  const toJson = (value) => {
    if (value === undefined) return null;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : JSON.parse(text);
    } catch (error) {
      return String(value);
    }
  };
  const request = (op, payload) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      send(JSON.stringify({ type: "request", id, op, payload: toJson(payload) }));
    });
  const api = {
    search: (query) => request("search", typeof query === "string" ? { query } : query),
    describe: (query) => request("describe", typeof query === "string" ? { path: query } : query),
    call: (path, args, options) =>
      request("call", { path, args: args === undefined ? {} : args, server: options && options.server }),
  };
  // tools.<prefixedName>(args) calls that tool; the host resolves (and suggests) names.
  const tools = new Proxy(api, {
    get(target, prop) {
      if (typeof prop !== "string") return undefined;
      if (Object.prototype.hasOwnProperty.call(target, prop)) return target[prop];
      if (prop === "then" || prop === "toJSON") return undefined;
      return (args) => request("call", { path: prop, args: args === undefined ? {} : args });
    },
  });
  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = JSON.stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const log = (level) => (...values) => {
    send(JSON.stringify({ type: "console", level, text: values.map(format).join(" ") }));
  };
  const g = globalThis;
  g.tools = tools;
  g.emit = (value) => {
    send(JSON.stringify({ type: "emit", value: toJson(value) }));
  };
  g.console = { log: log("log"), info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug") };
  g.setTimeout = (fn, ms, ...args) => {
    const id = nextId++;
    timers.set(id, () => fn(...args));
    send(JSON.stringify({ type: "timer", id, ms: Number(ms) || 0 }));
    return id;
  };
  g.clearTimeout = (id) => {
    timers.delete(id);
  };
  return {
    deliver(json) {
      const message = JSON.parse(json);
      const entry = pending.get(message.id);
      if (!entry) return;
      pending.delete(message.id);
      if (message.error !== undefined) entry.reject(new Error(message.error));
      else entry.resolve(message.value);
    },
    fire(id) {
      const fn = timers.get(id);
      if (!fn) return;
      timers.delete(id);
      fn();
    },
  };
})`;

export const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const vm = require("node:vm");
const post = (message) => parentPort.postMessage(JSON.stringify(message));
// A promise the script forgot to await must not end the worker; its result still arrives.
process.on("unhandledRejection", () => {});
const context = vm.createContext(Object.create(null), {
  name: "mcpScript",
  codeGeneration: { strings: false, wasm: false },
});
const bootstrap = new vm.Script(${JSON.stringify(BOOTSTRAP)}, { filename: "mcpScript-bootstrap.js" });
const bridge = bootstrap.runInContext(context)((text) => {
  const message = JSON.parse(text);
  if (message.type === "timer") {
    setTimeout(() => {
      try {
        bridge.fire(message.id);
      } catch (error) {
        // a throwing timer callback surfaces like an uncaught error in the script
        fail(error);
      }
    }, Math.max(0, message.ms));
    return;
  }
  parentPort.postMessage(text);
});
parentPort.on("message", (text) => bridge.deliver(text));
const describe = (error) => {
  if (error && typeof error === "object") {
    return { name: String(error.name || "Error"), message: String(error.message || error) };
  }
  return { name: "Error", message: String(error) };
};
const fail = (error) => post({ type: "failed", ...describe(error) });
const finish = (value) => {
  let encoded = null;
  try {
    const text = JSON.stringify(value === undefined ? null : value);
    encoded = text === undefined ? null : JSON.parse(text);
  } catch (error) {
    encoded = String(value);
  }
  post({ type: "done", value: encoded });
};
try {
  const script = new vm.Script("(async () => {\n" + workerData.code + "\n})()", {
    filename: "mcpScript.js",
    lineOffset: -1,
  });
  Promise.resolve(script.runInContext(context)).then(finish, fail);
} catch (error) {
  fail(error);
}
`;
