/**
 * The events a `ConnectionManager` sends its subscribers (status changes,
 * server notifications, session renewals) and the one typed emitter that
 * holds their listeners: a listener's bug never breaks connection handling.
 */
import type { ServerNotification } from "../inbound/server-notification.js";
import type { StatusListener } from "./server-status.js";

export type NotificationEventListener = (server: string, notification: ServerNotification) => void;
/** Hears a server whose session was renewed (it restarted): its tools, prompts and resources may have changed. */
export type SessionRenewedListener = (server: string) => void;

/** Each event of a `ConnectionManager` and the listener that hears it. */
export interface ManagerEvents {
  /** Status changes (one event per change of state or error). */
  status: StatusListener;
  /** Notifications of every connected server, named by server. */
  notification: NotificationEventListener;
  /** Session renewals: a remote server lost its session (e.g. restarted) and a new one is open. */
  "session-renewed": SessionRenewedListener;
}

type Listener = (...args: never[]) => void;

/** Listeners by event; `emit` calls each listener of the event, ignoring what it throws. */
export class Emitter<E extends { [K in keyof E]: Listener }> {
  private readonly listeners = new Map<keyof E, Set<Listener>>();

  /** Adds a listener; the returned function removes it. */
  on<K extends keyof E>(event: K, listener: E[K]): () => void {
    const set = this.listeners.get(event) ?? new Set<Listener>();
    this.listeners.set(event, set);
    set.add(listener);
    return () => set.delete(listener);
  }

  emit<K extends keyof E>(event: K, ...args: Parameters<E[K]>): void {
    for (const listener of this.listeners.get(event) ?? []) {
      try {
        (listener as (...args: Parameters<E[K]>) => void)(...args);
      } catch {
        // a listener's bug must not break connection handling
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
