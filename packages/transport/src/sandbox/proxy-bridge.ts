/**
 * Inside a sandbox with `network.allow`, the server has only a loopback
 * interface: this tiny Node program (run by bwrap as the sandbox's first
 * process) listens on 127.0.0.1:`port` there, relays each connection to the
 * proxy's Unix socket, and runs the server with HTTP(S)_PROXY pointing at it.
 * It exits with the server's exit code and passes termination on.
 */

/** The port the bridge listens on inside the sandbox's own network namespace. */
export const BRIDGE_PORT = 3128;

/** argv: socket path, port, command, args… */
const BRIDGE_SOURCE = `
const net = require("node:net");
const { spawn } = require("node:child_process");
const [socketPath, port, command, ...args] = process.argv.slice(1);
const bridge = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  client.pipe(upstream).pipe(client);
  const end = () => { client.destroy(); upstream.destroy(); };
  client.on("error", end);
  upstream.on("error", end);
});
bridge.listen(Number(port), "127.0.0.1", () => {
  const child = spawn(command, args, { stdio: "inherit" });
  child.on("error", (error) => { process.stderr.write("could not start " + command + ": " + error.message + "\\n"); process.exit(127); });
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(signal, () => child.kill(signal));
});
`;

/** The command line that runs `command args` behind the bridge with `node`. */
export function bridgedCommand(
  node: string,
  socketPath: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return { command: node, args: ["-e", BRIDGE_SOURCE, socketPath, String(BRIDGE_PORT), command, ...args] };
}

/** The proxy variables a sandboxed server gets (curl, Python, Go, npm, and Node 24+ with NODE_USE_ENV_PROXY honour them). */
export function proxyEnv(): Record<string, string> {
  const url = `http://127.0.0.1:${BRIDGE_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    NO_PROXY: "",
    no_proxy: "",
    NODE_USE_ENV_PROXY: "1",
  };
}
