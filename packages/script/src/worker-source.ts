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
 * generation (`eval`, `new Function`) is off in the context. The
 * bootstrap keeps its own copies of the built-ins it relies on (`JSON`,
 * `Promise.prototype.then`, `Reflect.apply`), so a script that replaces them
 * can garble only its own output; the worker's side never throws into the
 * context and never hands it a function.
 *
 * Messages (JSON strings both ways, so the host can count their bytes):
 *   worker → host: request {id, op, payload} · emit {value} · console {level, text}
 *                  · done {value} · failed {name, message}
 *   host → worker: response {id, value} | {id, error}
 */

/** Evaluated inside the vm context; returns the context's side of the bridge. */
const BOOTSTRAP = `(function (send) {
  "use strict";
  const { stringify, parse } = JSON;
  const apply = Reflect.apply;
  const then = Promise.prototype.then;
  const pending = new Map();
  const timers = new Map();
  let nextId = 1;
  const post = (message) => send(stringify(message));
  const toJson = (value) => {
    if (value === undefined) return null;
    try {
      const text = stringify(value);
      return text === undefined ? String(value) : parse(text);
    } catch (error) {
      return String(value);
    }
  };
  const describe = (error) => {
    try {
      if (error && typeof error === "object") {
        return { name: String(error.name || "Error"), message: String(error.message || error) };
      }
      return { name: "Error", message: String(error) };
    } catch (inner) {
      return { name: "Error", message: "the script threw a value that cannot be shown" };
    }
  };
  const request = (op, payload) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      post({ type: "request", id, op, payload: toJson(payload) });
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
      const text = stringify(value);
      return text === undefined ? String(value) : text;
    } catch (error) {
      return String(value);
    }
  };
  const log = (level) => (...values) => {
    post({ type: "console", level, text: values.map(format).join(" ") });
  };
  const g = globalThis;
  g.tools = tools;
  g.emit = (value) => {
    post({ type: "emit", value: toJson(value) });
  };
  g.console = { log: log("log"), info: log("info"), warn: log("warn"), error: log("error"), debug: log("debug") };
  g.setTimeout = (fn, ms, ...args) => {
    const id = nextId++;
    timers.set(id, () => fn(...args));
    post({ type: "timer", id, ms: Number(ms) || 0 });
    return id;
  };
  g.clearTimeout = (id) => {
    timers.delete(id);
  };
  return {
    run(promise) {
      apply(then, promise, [
        (value) => post({ type: "done", value: toJson(value) }),
        (error) => post({ type: "failed", ...describe(error) }),
      ]);
    },
    deliver(json) {
      const message = parse(json);
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
      try {
        fn();
      } catch (error) {
        // A throwing timer callback fails the script like an uncaught error.
        post({ type: "failed", ...describe(error) });
      }
    },
  };
})`;

export const WORKER_SOURCE = String.raw`
"use strict";
const { parentPort, workerData } = require("node:worker_threads");
const vm = require("node:vm");
// A promise the script forgot to await must not end the worker; its result still arrives.
process.on("unhandledRejection", () => {});
const context = vm.createContext(Object.create(null), {
  name: "mcpScript",
  codeGeneration: { strings: false, wasm: false },
});
const bootstrap = new vm.Script(${JSON.stringify(BOOTSTRAP)}, { filename: "mcpScript-bootstrap.js" });
// Called by script code: it must never throw (an error of this realm would reach the script).
const bridge = bootstrap.runInContext(context)((text) => {
  try {
    if (typeof text !== "string") return;
    const message = JSON.parse(text);
    if (message === null || typeof message !== "object") return;
    if (message.type === "timer") {
      setTimeout(() => {
        try {
          bridge.fire(message.id);
        } catch {}
      }, Math.max(0, Number(message.ms) || 0));
      return;
    }
    parentPort.postMessage(text);
  } catch {}
});
parentPort.on("message", (text) => {
  try {
    bridge.deliver(text);
  } catch {}
});
// Syntax errors (of this realm), and code that closes the async wrapper and throws at top level.
const failed = (error) => {
  let name = "Error";
  let message = "the script failed";
  try {
    name = String(error.name);
    message = String(error.message);
  } catch {}
  parentPort.postMessage(JSON.stringify({ type: "failed", name, message }));
};
try {
  const script = new vm.Script("(async () => {\n" + workerData.code + "\n})()", {
    filename: "mcpScript.js",
    lineOffset: -1,
  });
  bridge.run(script.runInContext(context));
} catch (error) {
  failed(error);
}
`;
