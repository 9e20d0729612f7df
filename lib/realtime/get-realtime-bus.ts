import { getEnv, type Env } from "@/lib/env";
import { createMemoryRealtimeBus } from "./memory-realtime-bus";
import type { RealtimeBus } from "./realtime-bus";
import { createRedisRealtimeBus } from "./redis-realtime-bus";

/**
 * Kept on `globalThis`, not in a module variable: under `next start` the /v1 route, the console's
 * server actions and its SSE route are separate bundles, each with its own copy of this module, and
 * with `memory:` they must still share one bus (one process, one EventEmitter).
 */
const holder = globalThis as { [key: symbol]: { url: string; bus: RealtimeBus } | undefined };
const KEY = Symbol.for("closing-signing.realtime-bus");

/** The process-wide bus for REALTIME_URL, or undefined when real time is not configured. */
export function getRealtimeBus(env: Env = getEnv()): RealtimeBus | undefined {
  const url = env.REALTIME_URL;
  if (!url) return undefined;
  const current = holder[KEY];
  if (current?.url !== url) {
    void current?.bus.close();
    holder[KEY] = { url, bus: url === "memory:" ? createMemoryRealtimeBus() : createRedisRealtimeBus(url) };
  }
  return holder[KEY]!.bus;
}
