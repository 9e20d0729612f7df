import { Redis } from "ioredis";
import { log } from "@/lib/log";
import type { RealtimeBus, RealtimeListener, RealtimeMessage } from "./realtime-bus";

type Channel = { listeners: Set<RealtimeListener>; ready: Promise<void> };

/**
 * The multi-process bus (`REALTIME_URL=redis://…`): Redis pub/sub over two connections (a
 * connection in subscriber mode cannot publish). Each channel is subscribed once per process and
 * fanned out locally, so a thousand SSE clients on one document cost one Redis subscription.
 */
export function createRedisRealtimeBus(url: string): RealtimeBus {
  // Both connections reconnect on their own (and re-subscribe); a command waits through at most two
  // reconnection attempts, so a Redis that is down makes calls fail quickly instead of hanging.
  const options = { maxRetriesPerRequest: 2 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  const channels = new Map<string, Channel>();

  subscriber.on("message", (name: string, raw: string) => {
    let message: RealtimeMessage;
    try {
      message = JSON.parse(raw) as RealtimeMessage;
    } catch {
      log.warn("realtime: ignored a message that is not JSON", { channel: name });
      return;
    }
    for (const listener of channels.get(name)?.listeners ?? []) listener(message);
  });
  for (const connection of [publisher, subscriber]) {
    connection.on("error", (error: unknown) => log.warn("realtime: redis connection error", { error: String(error) }));
  }

  const release = async (name: string, listener: RealtimeListener) => {
    const channel = channels.get(name);
    if (!channel) return;
    channel.listeners.delete(listener);
    if (channel.listeners.size === 0) {
      channels.delete(name);
      await subscriber.unsubscribe(name).catch(() => undefined);
    }
  };

  return {
    kind: "redis",
    publish: async (name, message) => {
      await publisher.publish(name, JSON.stringify(message));
    },
    subscribe: async (name, listener) => {
      let channel = channels.get(name);
      if (!channel) {
        channel = { listeners: new Set(), ready: subscriber.subscribe(name).then(() => undefined) };
        channels.set(name, channel);
      }
      channel.listeners.add(listener);
      try {
        await channel.ready;
      } catch (error) {
        await release(name, listener);
        throw error;
      }
      return () => release(name, listener);
    },
    close: async () => {
      channels.clear();
      publisher.disconnect();
      subscriber.disconnect();
    },
  };
}
