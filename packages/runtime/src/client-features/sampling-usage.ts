/**
 * Token usage of the sampling requests servers made in this session, per
 * server, for stats. Kept apart from `CallRecord`: sampling happens inside a
 * call (or outside any) and is the client's model's usage, not the server's.
 */

/** What one server's sampling requests used so far. */
export interface SamplingUsageEntry {
  server: string;
  requests: number;
  inputTokens: number;
  outputTokens: number;
  /** The models that answered, in first-use order. */
  models: string[];
}

export class SamplingUsage {
  private readonly byServer = new Map<string, SamplingUsageEntry>();

  /** `onRecord` hears each counted request too (call stats add its tokens up). */
  constructor(
    private readonly onRecord?: (
      server: string,
      usage?: { inputTokens: number; outputTokens: number },
    ) => void,
  ) {}

  /** Counts one answered request; `usage` may be missing when the provider reports none. */
  record(server: string, model: string, usage?: { inputTokens: number; outputTokens: number }): void {
    const entry = this.byServer.get(server) ?? {
      server,
      requests: 0,
      inputTokens: 0,
      outputTokens: 0,
      models: [],
    };
    entry.requests++;
    entry.inputTokens += usage?.inputTokens ?? 0;
    entry.outputTokens += usage?.outputTokens ?? 0;
    if (!entry.models.includes(model)) entry.models.push(model);
    this.byServer.set(server, entry);
    this.onRecord?.(server, usage);
  }

  /** One entry per server that sampled, copies. */
  entries(): SamplingUsageEntry[] {
    return [...this.byServer.values()].map((e) => ({ ...e, models: [...e.models] }));
  }
}
