/**
 * Keeps the tail of a server's stderr in memory (bounded), so it never reaches
 * the host's terminal but can be shown in errors and debug views.
 */
export class StderrBuffer {
  private chunks: string[] = [];
  private size = 0;

  constructor(private readonly maxChars = 16 * 1024) {}

  append(chunk: string): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.size > this.maxChars && this.chunks.length > 1) {
      this.size -= this.chunks.shift()!.length;
    }
    if (this.size > this.maxChars) {
      this.chunks = [this.chunks.join("").slice(-this.maxChars)];
      this.size = this.maxChars;
    }
  }

  text(): string {
    return this.chunks.join("");
  }

  /** The last `count` non-empty lines. */
  tail(count = 5): string[] {
    return this.text()
      .split(/\r?\n/)
      .filter((line) => line.trim() !== "")
      .slice(-count);
  }
}
