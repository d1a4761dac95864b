/**
 * Following a caller's abort signal from many requests with one listener.
 * A host usually passes the same signal to every call of one agent run;
 * adding and removing an `abort` listener on it (or `AbortSignal.any`) for
 * each request cost more than the rest of the request's bookkeeping in a
 * host that runs one call per model turn. Here the first follower of a
 * signal adds its one listener; later followers only join a set.
 */

type Follower = (reason: unknown) => void;

const followers = new WeakMap<AbortSignal, Set<Follower>>();

/**
 * Calls `follower` with the signal's reason when `signal` aborts (at once if
 * it has); returns the function that stops following (call it when the
 * request ends).
 */
export function followSignal(signal: AbortSignal, follower: Follower): () => void {
  if (signal.aborted) {
    follower(signal.reason);
    return () => {};
  }
  let set = followers.get(signal);
  if (!set) {
    const joined = new Set<Follower>();
    set = joined;
    followers.set(signal, joined);
    signal.addEventListener(
      "abort",
      () => {
        followers.delete(signal);
        for (const f of [...joined]) f(signal.reason);
      },
      { once: true },
    );
  }
  set.add(follower);
  const joined = set;
  return () => joined.delete(follower);
}
