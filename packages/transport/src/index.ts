export {
  ConnectionManager,
  type ConnectionManagerOptions,
  type ConnectionState,
  type ServerStatus,
} from "./connection-manager.js";
export { TransportError, type TransportErrorCode } from "./errors.js";
export {
  type CallOptions,
  type ClientIdentity,
  type ConnectOptions,
  connectServer,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type ServerConnection,
} from "./server-connection.js";
