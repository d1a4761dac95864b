/**
 * A real Secret Service for tests: gnome-keyring inside `dbus-run-session`,
 * unlocked with a throwaway password (HOME must be a temp dir, so its
 * keyrings live there and never touch the developer's own), and why such
 * tests cannot run on a machine that lacks it.
 */
import { spawnSync } from "node:child_process";
import { keytarUnavailableReason } from "@pi-mcp-adapter/test-kit";

export function have(command: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${command}`]).status === 0;
}

/** Why the Secret Service tests cannot run here: what is missing and how to install it. */
export function keyringMissingReason(): string | undefined {
  const tools = ["dbus-run-session", "gnome-keyring-daemon", "secret-tool"].filter((c) => !have(c));
  const reasons = [
    keytarUnavailableReason(),
    tools.length
      ? `${tools.join(", ")} not installed (apt-get install gnome-keyring dbus-x11 libsecret-tools)`
      : "",
  ];
  return reasons.filter(Boolean).join("; ") || undefined;
}

/** Wraps a shell command: a fresh session bus with an unlocked gnome-keyring. */
export const unlockedKeyring = (command: string) => [
  "dbus-run-session",
  "--",
  "sh",
  "-c",
  `printf %s keyring-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null; ${command}`,
];
