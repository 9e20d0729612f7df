import { EventEmitter } from "node:events";
import type { RealtimeBus } from "./realtime-bus";

/** The single-process bus (`REALTIME_URL=memory:`). Messages are cloned as JSON, as over Redis. */
export function createMemoryRealtimeBus(): RealtimeBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    kind: "memory",
    publish: async (channel, message) => {
      const json = JSON.stringify(message);
      emitter.emit(channel, JSON.parse(json));
    },
    subscribe: async (channel, listener) => {
      emitter.on(channel, listener);
      return async () => {
        emitter.off(channel, listener);
      };
    },
    close: async () => {
      emitter.removeAllListeners();
    },
  };
}
