/**
 * Notifications a server sends, as neutral typed events. They are read off the
 * transport before either SDK dispatches them (both SDKs chain a transport's
 * existing `onmessage`), so one reader serves SDK v1 and v2 alike and sees
 * progress with its real token.
 */

export type LoggingLevel =
  | "debug"
  | "info"
  | "notice"
  | "warning"
  | "error"
  | "critical"
  | "alert"
  | "emergency";

export type ServerNotification =
  | { kind: "tools/list_changed" }
  | { kind: "prompts/list_changed" }
  | { kind: "resources/list_changed" }
  | { kind: "resources/updated"; uri: string }
  | {
      kind: "progress";
      progressToken: string | number;
      progress: number;
      total?: number;
      message?: string;
    }
  | { kind: "log"; level: LoggingLevel; logger?: string; data: unknown }
  /** The user finished the browser step of the URL elicitation `elicitationId`. */
  | { kind: "elicitation/complete"; elicitationId: string }
  /** A task's status, as the server pushed it (`notifications/tasks/status` or, on 2026-07-28, `notifications/tasks`). */
  | { kind: "task"; method: TaskStatusMethod; params: Record<string, unknown> };

/** The methods a server announces a task's status with, per protocol generation. */
export type TaskStatusMethod = "notifications/tasks/status" | "notifications/tasks";

export type NotificationListener = (notification: ServerNotification) => void;

/** Listeners of one connection; a throwing listener never disturbs the others or the connection. */
export class NotificationRelay {
  private readonly listeners = new Set<NotificationListener>();

  on(listener: NotificationListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(notification: ServerNotification): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(notification);
      } catch {
        // a listener's bug must not break message handling
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}

type MessageSink = (message: unknown, extra?: unknown) => void;

/** Reads server notifications off `transport` before the SDK client (connected after this) sees them. */
export function tapNotifications(transport: object, relay: NotificationRelay): void {
  const target = transport as { onmessage?: MessageSink };
  const previous = target.onmessage;
  target.onmessage = (message, extra) => {
    previous?.(message, extra);
    const notification = toServerNotification(message);
    if (notification) relay.emit(notification);
  };
}

const LIST_CHANGED: Record<string, ServerNotification> = {
  "notifications/tools/list_changed": { kind: "tools/list_changed" },
  "notifications/prompts/list_changed": { kind: "prompts/list_changed" },
  "notifications/resources/list_changed": { kind: "resources/list_changed" },
};

/** The typed event for a JSON-RPC notification, or undefined for anything else (or a malformed one). */
export function toServerNotification(message: unknown): ServerNotification | undefined {
  const m = message as { method?: unknown; id?: unknown; params?: Record<string, unknown> } | null;
  if (!m || typeof m !== "object" || typeof m.method !== "string" || "id" in m) return undefined;
  const p = m.params ?? {};
  const listChanged = LIST_CHANGED[m.method];
  if (listChanged) return { ...listChanged };
  switch (m.method) {
    case "notifications/resources/updated":
      return typeof p.uri === "string" ? { kind: "resources/updated", uri: p.uri } : undefined;
    case "notifications/progress": {
      const token = p.progressToken;
      if ((typeof token !== "string" && typeof token !== "number") || typeof p.progress !== "number") {
        return undefined;
      }
      return {
        kind: "progress",
        progressToken: token,
        progress: p.progress,
        ...(typeof p.total === "number" ? { total: p.total } : {}),
        ...(typeof p.message === "string" ? { message: p.message } : {}),
      };
    }
    case "notifications/elicitation/complete":
      return typeof p.elicitationId === "string"
        ? { kind: "elicitation/complete", elicitationId: p.elicitationId }
        : undefined;
    case "notifications/tasks/status":
    case "notifications/tasks":
      return typeof p.taskId === "string" ? { kind: "task", method: m.method, params: p } : undefined;
    case "notifications/message":
      if (typeof p.level !== "string") return undefined;
      return {
        kind: "log",
        level: p.level as LoggingLevel,
        ...(typeof p.logger === "string" ? { logger: p.logger } : {}),
        data: p.data,
      };
    default:
      return undefined;
  }
}
