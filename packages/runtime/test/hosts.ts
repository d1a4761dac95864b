import type { HostDialogs } from "../src/host.js";
import { type Host, headlessHost } from "../src/index.js";

/** A host with a UI whose select dialog is `select`; everything else as headless. */
export function uiHost(select: HostDialogs["select"], extra: Partial<Host> = {}): Host {
  return { ...headlessHost(), hasUI: true, dialogs: { ...headlessHost().dialogs, select }, ...extra };
}
