import { getEnv, type Env } from "@/lib/env";
import { createMemoryRealtimeBus } from "./memory-realtime-bus";
import type { RealtimeBus } from "./realtime-bus";
import { createRedisRealtimeBus } from "./redis-realtime-bus";

let current: { url: string; bus: RealtimeBus } | undefined;

/** The process-wide bus for REALTIME_URL, or undefined when real time is not configured. */
export function getRealtimeBus(env: Env = getEnv()): RealtimeBus | undefined {
  const url = env.REALTIME_URL;
  if (!url) return undefined;
  if (current?.url !== url) {
    void current?.bus.close();
    current = { url, bus: url === "memory:" ? createMemoryRealtimeBus() : createRedisRealtimeBus(url) };
  }
  return current.bus;
}
