import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { getRealtimeBus } from "@/lib/realtime/get-realtime-bus";
import { createMemoryRealtimeBus } from "@/lib/realtime/memory-realtime-bus";
import type { RealtimeBus, RealtimeMessage } from "@/lib/realtime/realtime-bus";
import { createRedisRealtimeBus } from "@/lib/realtime/redis-realtime-bus";

const REDIS_URL = "redis://127.0.0.1:6379";
const buses: RealtimeBus[] = [];
afterAll(async () => {
  await Promise.all(buses.map((b) => b.close()));
  setEnvForTests({ REALTIME_URL: "" });
});

function collect() {
  const received: RealtimeMessage[] = [];
  const waiters: (() => void)[] = [];
  return {
    received,
    listener: (m: RealtimeMessage) => {
      received.push(m);
      waiters.splice(0).forEach((w) => w());
    },
    async waitFor(count: number, ms = 3000) {
      const deadline = Date.now() + ms;
      while (received.length < count && Date.now() < deadline) {
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50);
        });
      }
      return received;
    },
  };
}

/** Two handles on "the same bus": one instance for memory:, two connections (two processes) for redis. */
const pairs = {
  memory: () => {
    const bus = createMemoryRealtimeBus();
    buses.push(bus);
    return [bus, bus] as const;
  },
  redis: () => {
    const a = createRedisRealtimeBus(REDIS_URL);
    const b = createRedisRealtimeBus(REDIS_URL);
    buses.push(a, b);
    return [a, b] as const;
  },
};

describe.each(["memory", "redis"] as const)("%s bus", (kind) => {
  it("delivers a published message to every subscriber of the channel, and only that channel", async () => {
    const [publisher, subscriber] = pairs[kind]();
    const channel = `test:${randomUUID()}`;
    const one = collect();
    const two = collect();
    const other = collect();
    await subscriber.subscribe(channel, one.listener);
    await subscriber.subscribe(channel, two.listener);
    await subscriber.subscribe(`${channel}:other`, other.listener);
    await publisher.publish(channel, { type: "created", n: 1 });
    expect(await one.waitFor(1)).toEqual([{ type: "created", n: 1 }]);
    expect(await two.waitFor(1)).toEqual([{ type: "created", n: 1 }]);
    expect(other.received).toEqual([]);
  });

  it("stops delivering after unsubscribe; other listeners keep theirs", async () => {
    const [publisher, subscriber] = pairs[kind]();
    const channel = `test:${randomUUID()}`;
    const leaving = collect();
    const staying = collect();
    const unsubscribe = await subscriber.subscribe(channel, leaving.listener);
    await subscriber.subscribe(channel, staying.listener);
    await unsubscribe();
    await publisher.publish(channel, { n: 2 });
    expect(await staying.waitFor(1)).toEqual([{ n: 2 }]);
    expect(leaving.received).toEqual([]);
  });

  it("preserves order", async () => {
    const [publisher, subscriber] = pairs[kind]();
    const channel = `test:${randomUUID()}`;
    const got = collect();
    await subscriber.subscribe(channel, got.listener);
    for (let n = 0; n < 20; n++) await publisher.publish(channel, { n });
    expect((await got.waitFor(20)).map((m) => m.n)).toEqual([...Array(20).keys()]);
  });
});

describe("getRealtimeBus", () => {
  it("follows REALTIME_URL: none, memory:, redis://", async () => {
    expect(getRealtimeBus(setEnvForTests({ REALTIME_URL: "" }))).toBeUndefined();
    expect(getRealtimeBus(setEnvForTests({ REALTIME_URL: "memory:" }))?.kind).toBe("memory");
    const redis = getRealtimeBus(setEnvForTests({ REALTIME_URL: REDIS_URL }));
    expect(redis?.kind).toBe("redis");
    expect(getRealtimeBus()).toBe(redis);
  });

  it("an unreachable Redis rejects instead of hanging", async () => {
    const bus = createRedisRealtimeBus("redis://127.0.0.1:1");
    buses.push(bus);
    await expect(bus.subscribe("test:x", () => {})).rejects.toThrow();
  });
});
