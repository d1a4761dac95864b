export { stripControlSequences } from "./strip-control.js";
export { type HostContent, type HostResult, toHostContent } from "./to-host-content.js";
