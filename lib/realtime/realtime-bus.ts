/** A JSON message on a channel, e.g. `{ type: "created", comment }` on `comments:<documentId>`. */
export type RealtimeMessage = Record<string, unknown>;

export type RealtimeListener = (message: RealtimeMessage) => void;

/**
 * Publish/subscribe between API processes. `memory:` reaches subscribers in this process only;
 * `redis://` reaches every process connected to the same Redis. Delivery is at most once: a
 * subscriber that is not connected when a message is published never sees it.
 */
export type RealtimeBus = {
  kind: "memory" | "redis";
  publish(channel: string, message: RealtimeMessage): Promise<void>;
  /** Resolves once the subscription is active; the returned function unsubscribes. */
  subscribe(channel: string, listener: RealtimeListener): Promise<() => Promise<void>>;
  close(): Promise<void>;
};
