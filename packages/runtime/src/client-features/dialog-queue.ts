/**
 * One conversation with the user at a time. A server on 2026-07-28 may ask
 * for a form and a completion in the same `input_required` round, and the SDK
 * answers them concurrently; interleaved dialogs (a field, then a sampling
 * approval, then the next field) would be confusing and easy to misanswer.
 * Each flow holds the queue for its whole sequence of dialogs.
 */
export type DialogQueue = <T>(flow: () => Promise<T>) => Promise<T>;

export function createDialogQueue(): DialogQueue {
  let tail: Promise<unknown> = Promise.resolve();
  return (flow) => {
    const run = tail.then(flow, flow);
    // The next flow waits for this one to settle, whatever its outcome.
    tail = run.catch(() => {});
    return run;
  };
}
