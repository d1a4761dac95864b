/**
 * Where the input requests of 2026-07-28 tasks go: the connection's own
 * handlers (the same dialogs as any server request), with the task's clock
 * held while a question is open (task-deadline.ts).
 */
import {
  type ApplicationElicitResult,
  createApplicationInputHandler,
  type ResolvedInputExchangeContext,
} from "@modelcontextprotocol/ext-tasks/client";
import type { CreateMessageParams, ElicitRequestParams } from "@pi-mcp-adapter/core";
import { type ClientHandlers, unguardedContext } from "../inbound/client-handlers.js";
import type { TaskDeadline } from "./task-deadline.js";

/**
 * Input requests of 2026-07-28 tasks go to the connection's own handlers (the
 * same dialogs as requests); the call's clock stands still while one is open.
 */
export function inputHandler(server: string, handlers: ClientHandlers | undefined) {
  const missing = (what: string) =>
    new Error(`${server} asked for ${what} during a task, which this client does not offer`);
  const answering = async <T>(
    context: ResolvedInputExchangeContext<TaskDeadline>,
    answer: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    const release = context.applicationContext?.hold();
    try {
      return await answer(context.signal ?? new AbortController().signal);
    } finally {
      release?.();
    }
  };
  return createApplicationInputHandler<TaskDeadline>({
    elicitation: (request, context) => {
      const elicitation = handlers?.elicitation;
      if (!elicitation) throw missing("elicitation");
      const params = request.params as unknown as ElicitRequestParams;
      return answering(
        context,
        async (signal) =>
          (await elicitation(params, unguardedContext(server, signal))) as ApplicationElicitResult,
      );
    },
    sampling: (request, context) => {
      const sampling = handlers?.sampling;
      if (!sampling) throw missing("sampling");
      const params = request.params as unknown as CreateMessageParams;
      return answering(
        context,
        async (signal) => (await sampling(params, unguardedContext(server, signal))) as never,
      );
    },
    roots: (_request, context) => {
      const roots = handlers?.roots;
      if (!roots) throw missing("roots");
      return answering(context, async (signal) => ({ roots: await roots(unguardedContext(server, signal)) }));
    },
  });
}
