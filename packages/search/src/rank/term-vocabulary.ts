/**
 * The terms of an index a query word may be (not the field-marked ones:
 * exact surface forms and described-name terms), as query expansion reads
 * them: whether a term is one, answered from the postings' own table at
 * once; the list sorted (prefix look-ups) and the lists by length (near
 * spellings) made when a query first needs them. An index read from a file
 * thus starts without building a set, a sorted list and a length table of
 * several thousand terms that most first queries never look at.
 */
import { DESCRIBED, SURFACE } from "../indexing/tool-fields.js";

const isQueryTerm = (term: string) => !term.startsWith(SURFACE) && !term.startsWith(DESCRIBED);

export class TermVocabulary implements ReadonlySet<string> {
  private all: Set<string> | undefined;
  private sorted: string[] | undefined;
  private lengths: Map<number, string[]> | undefined;

  /** `ids`: the postings' term table (every term, field-marked ones included). */
  constructor(private readonly ids: ReadonlyMap<string, number>) {}

  has(term: string): boolean {
    return this.ids.has(term) && isQueryTerm(term);
  }

  /** The terms sorted (JavaScript's `<` order). */
  get sortedTerms(): readonly string[] {
    this.sorted ??= [...this.set()].sort();
    return this.sorted;
  }

  /** The terms by length, each list sorted. */
  get termsByLength(): ReadonlyMap<number, readonly string[]> {
    if (!this.lengths) {
      this.lengths = new Map();
      for (const term of this.sortedTerms) {
        const bucket = this.lengths.get(term.length);
        if (bucket) bucket.push(term);
        else this.lengths.set(term.length, [term]);
      }
    }
    return this.lengths;
  }

  get size(): number {
    return this.set().size;
  }

  forEach(callback: (value: string, key: string, set: ReadonlySet<string>) => void, thisArg?: unknown): void {
    for (const term of this.set()) callback.call(thisArg, term, term, this);
  }

  entries(): SetIterator<[string, string]> {
    return this.set().entries();
  }

  keys(): SetIterator<string> {
    return this.set().keys();
  }

  values(): SetIterator<string> {
    return this.set().values();
  }

  [Symbol.iterator](): SetIterator<string> {
    return this.set().values();
  }

  private set(): Set<string> {
    if (!this.all) {
      this.all = new Set();
      for (const term of this.ids.keys()) if (isQueryTerm(term)) this.all.add(term);
    }
    return this.all;
  }
}
