/** A script's bounds, shared by the runner and the tool's definition (which must not load the runner). */

/** The deadline when the caller gives none. */
export const DEFAULT_SCRIPT_TIMEOUT_MS = 30_000;
/** The longest deadline a script may ask for. */
export const MAX_SCRIPT_TIMEOUT_MS = 10 * 60_000;
/** Bytes that may move between worker and host per script (code, requests, answers, output). */
export const SCRIPT_TRANSFER_BUDGET_BYTES = 16 * 1024 * 1024;
