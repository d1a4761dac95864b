/**
 * The subset of Pi's `ExtensionAPI` the extension uses, recording what it
 * registers (and when the first tool arrives), plus a session context for
 * firing `session_start` and running the registered tool.
 */
import { EventEmitter } from "node:events";

export interface RecordedTool {
  name: string;
  label?: string;
  description: string;
  parameters: unknown;
  execute(
    toolCallId: string,
    params: unknown,
    signal: AbortSignal | undefined,
    onUpdate: undefined,
    ctx: unknown,
  ): Promise<{ content: { type: string; text?: string }[]; details?: Record<string, unknown> }>;
}

type Handler = (event: unknown, ctx: unknown) => unknown;

export class RecordingPi {
  readonly tools: RecordedTool[] = [];
  readonly commands: string[] = [];
  readonly flags: string[] = [];
  /** `performance.now()` at the first `registerTool`. */
  firstToolAt: number | undefined;
  private readonly handlers = new Map<string, Handler[]>();
  private readonly bus = new EventEmitter();
  readonly events = {
    on: (channel: string, handler: (data: unknown) => void) => {
      this.bus.on(channel, handler);
      return () => this.bus.off(channel, handler);
    },
    emit: (channel: string, data: unknown) => {
      this.bus.emit(channel, data);
    },
  };

  constructor(private readonly flagValues: Record<string, unknown> = {}) {}

  registerTool(tool: RecordedTool): void {
    this.firstToolAt ??= performance.now();
    this.tools.push(tool);
  }

  registerCommand(name: string): void {
    this.commands.push(name);
  }

  registerFlag(name: string): void {
    this.flags.push(name);
  }

  getFlag(name: string): unknown {
    return this.flagValues[name];
  }

  on(event: string, handler: Handler): void {
    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);
  }

  async fire(event: string, ctx: unknown): Promise<void> {
    for (const handler of this.handlers.get(event) ?? []) await handler({ type: event }, ctx);
  }
}

/** A headless session context (print mode: no UI) in `cwd`. */
export function headlessContext(cwd: string): unknown {
  const noUi = async () => undefined;
  return {
    cwd,
    hasUI: false,
    ui: { notify: () => {}, setStatus: () => {}, confirm: noUi, select: noUi, input: noUi },
  };
}

/**
 * A declaration as text: name, description and JSON-Schema parameters, as
 * runtime's token cost (the panel's and `status`'s figures) counts it.
 */
export function definitionText(tool: { name: string; description: string; parameters: unknown }): string {
  return tool.name + tool.description + JSON.stringify(tool.parameters);
}

/** The token estimate runtime's token cost uses: characters / 4, rounded up. */
export function tokens(text: string): number {
  return Math.ceil(text.length / 4);
}
