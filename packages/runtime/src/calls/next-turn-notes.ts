/**
 * One-line notes for the model's next turn: a watched resource changed, an
 * MCP App updated what it wants the model to know. Each note has a key; a
 * later note with the same key replaces one not yet taken, so a resource
 * that changes ten times while the user is away is one line. A host takes
 * them right before a model request and adds them to it; nothing is added
 * when there are none, so the notes never cost tokens on their own.
 */

export class NextTurnNotes {
  private readonly notes = new Map<string, string>();

  /** Sets (or replaces) the note under `key`. */
  set(key: string, text: string): void {
    this.notes.delete(key);
    this.notes.set(key, text);
  }

  /** Every note waiting, oldest first; empties the list. */
  take(): string[] {
    const taken = [...this.notes.values()];
    this.notes.clear();
    return taken;
  }

  get size(): number {
    return this.notes.size;
  }
}
