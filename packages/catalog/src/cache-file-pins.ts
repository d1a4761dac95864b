/**
 * The tool pins of `mcp-cache.json` as a process holds them: the pins line's
 * text as read, parsed and checked (`isPins`) only when first needed. A
 * start-up never compares a pin (a call, an approval, `status` and the search
 * warm-up do, after Pi's first request has left); parsing and checking the
 * pins of a thousand tools (~500 KB) cost every warm start ~10 ms.
 *
 * Pins are trust on first use, so nothing may see them other than they are:
 * whatever reads them (`read`) gets them parsed and checked, and a file
 * written before they were ever read gets their text back exactly as it was
 * read (`formatCacheFile`), so no pin is lost or reset by a rewrite. Text that
 * turns out not to be pins is reported once when first read and then counts as
 * no pins at all, as a file that could not be parsed always has (its servers'
 * tools are pinned again as first seen); it is not written back.
 */
import type { CacheFile } from "./cache-file-schema.js";
import { isPins } from "./pins-check.js";
import type { ServerPins } from "./tool-fingerprint.js";

/** Pins per server name, as the cache file keeps them. */
export type Pins = Record<string, ServerPins>;

/** A cache file as a process holds it: its pins parsed when first needed. */
export type HeldCacheFile = Omit<CacheFile, "pins"> & { pins?: CachePins };

export class CachePins {
  /** The pins line's JSON as read (its bytes), until it is parsed. */
  private text: Buffer | undefined;
  private value: Pins | undefined;

  private constructor(text: Buffer | undefined, value: Pins | undefined) {
    this.text = text;
    this.value = value;
  }

  /** Pins read from the file as `bytes` (the JSON of the pins object), not decoded or parsed yet. */
  static fromBytes(bytes: Buffer): CachePins {
    return new CachePins(bytes, undefined);
  }

  /** Pins already parsed (and checked), or made by this process. */
  static of(value: Pins): CachePins {
    return new CachePins(undefined, value);
  }

  /** Whether the pins are still the unparsed text they were read as. */
  get unparsed(): boolean {
    return this.text !== undefined;
  }

  /**
   * The pins, parsed and checked on the first call. Text that is not valid
   * pins gives `undefined` (no pins), and `problem` hears why, once.
   */
  read(problem: (reason: string) => void): Pins | undefined {
    const text = this.text;
    if (text === undefined) return this.value;
    this.text = undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text.toString());
    } catch {
      problem("not valid JSON (corrupt or truncated)");
      return undefined;
    }
    if (!isPins(parsed)) {
      problem("unexpected shape");
      return undefined;
    }
    this.value = parsed as Pins;
    return this.value;
  }

  /** The JSON to write for these pins (their text as read, when never parsed), or `undefined` for none. */
  json(): string | undefined {
    if (this.text) return this.text.toString();
    return this.value === undefined ? undefined : JSON.stringify(this.value);
  }
}
