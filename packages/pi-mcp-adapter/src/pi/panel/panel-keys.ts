/**
 * Which panel action a key press means. Moving, confirming and closing
 * follow Pi's own `tui.select.*` keybindings (through the manager Pi hands
 * the component); the panel's own keys are matched here, without a runtime
 * import of Pi's TUI package, for the three encodings a terminal may send:
 * the legacy control byte, the Kitty protocol (`CSI code;mods u`) and
 * xterm's modifyOtherKeys (`CSI 27;mods;code ~`).
 *
 * Save is `ctrl+s`, remappable with `"mcp.panel.save"` in Pi's
 * keybindings.json (a key such as `"ctrl+w"`, a letter, or a list of them).
 */

export type PanelAction =
  | "up"
  | "down"
  | "confirm"
  | "close"
  | "toggle-direct"
  | "toggle-disabled"
  | "reconnect"
  | "auth"
  | "save"
  | "scope"
  | "setup";

/** The keybinding id users remap the save key with. */
export const PANEL_SAVE_KEYBINDING = "mcp.panel.save";
export const DEFAULT_SAVE_KEYS = ["ctrl+s"];

/** The part of Pi's keybindings manager the panel uses. */
export interface PanelKeybindings {
  matches(data: string, keybinding: string): boolean;
  getUserBindings?(): Record<string, unknown>;
}

/** The keys that save: the user's `mcp.panel.save` binding when set, else ctrl+s. */
export function saveKeys(keybindings: PanelKeybindings | undefined): string[] {
  const bound = keybindings?.getUserBindings?.()[PANEL_SAVE_KEYBINDING];
  const keys = typeof bound === "string" ? [bound] : Array.isArray(bound) ? bound : [];
  const usable = keys.filter((k): k is string => typeof k === "string" && k.trim() !== "");
  return usable.length ? usable : DEFAULT_SAVE_KEYS;
}

const OWN_KEYS: [PanelAction, string[]][] = [
  ["toggle-direct", ["space", "d"]],
  ["toggle-disabled", ["e"]],
  ["reconnect", ["r"]],
  ["auth", ["ctrl+a"]],
  ["scope", ["tab"]],
  ["setup", ["s"]],
];

/** The action for `data`, or `undefined` for keys the panel ignores. */
export function panelAction(
  data: string,
  keybindings: PanelKeybindings | undefined,
  save: readonly string[] = DEFAULT_SAVE_KEYS,
): PanelAction | undefined {
  // Save first: a user may bind it to a key the panel uses otherwise.
  if (save.some((key) => matchesKeyId(data, key))) return "save";
  const bound = (id: string, fallback: string) =>
    keybindings ? keybindings.matches(data, id) : matchesKeyId(data, fallback);
  if (bound("tui.select.up", "up") || matchesKeyId(data, "k")) return "up";
  if (bound("tui.select.down", "down") || matchesKeyId(data, "j")) return "down";
  if (bound("tui.select.confirm", "enter")) return "confirm";
  if (bound("tui.select.cancel", "escape") || matchesKeyId(data, "escape")) return "close";
  for (const [action, keys] of OWN_KEYS) if (keys.some((key) => matchesKeyId(data, key))) return action;
  return undefined;
}

const NAMED: Record<string, string[]> = {
  escape: ["\x1b", "\x1b[27u"],
  enter: ["\r", "\n", "\x1b[13u"],
  tab: ["\t", "\x1b[9u"],
  space: [" ", "\x1b[32u"],
  up: ["\x1b[A", "\x1bOA"],
  down: ["\x1b[B", "\x1bOB"],
};

/**
 * Whether `data` is the key `id` names: a named key, one character, or
 * `ctrl+<letter>`. Other combinations never match (the save key falls back
 * to nothing rather than to a wrong key).
 */
export function matchesKeyId(data: string, id: string): boolean {
  const key = id.trim().toLowerCase();
  const named = NAMED[key === "esc" ? "escape" : key === "return" ? "enter" : key];
  if (named) return named.includes(data);
  const ctrl = /^ctrl\+([a-z])$/.exec(key);
  if (ctrl) {
    const code = ctrl[1]!.charCodeAt(0);
    return (
      data === String.fromCharCode(code - 96) ||
      new RegExp(`^\\x1b\\[${code};5(:\\d+)?u$`).test(data) ||
      data === `\x1b[27;5;${code}~`
    );
  }
  if ([...key].length === 1) return data === key || data === `\x1b[${key.codePointAt(0)}u`;
  return false;
}
