import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import type { JobRegistry } from "./registry";
import { runDueJobs } from "./run-due-jobs";

export type JobPollingOptions = {
  intervalMs: number;
  workerId?: string;
  limit?: number;
  leaseMs?: number;
  registry?: JobRegistry;
};

export function newWorkerId(): string {
  return `${hostname()}:${process.pid}:${randomBytes(3).toString("hex")}`;
}

/**
 * Runs `runDueJobs` in a loop: straight again while batches come back full, otherwise after
 * `intervalMs`. A failing pass (database unreachable) is logged and retried on the next tick.
 * Returns a stop function that resolves once the in-flight batch has finished.
 */
export function startJobPolling(db: Db, options: JobPollingOptions): () => Promise<void> {
  const workerId = options.workerId ?? newWorkerId();
  const limit = options.limit ?? 10;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;

  const loop = (async () => {
    log.info("job worker started", { workerId, intervalMs: options.intervalMs });
    while (!stopped) {
      let full = false;
      try {
        const { claimed } = await runDueJobs(db, { workerId, limit, leaseMs: options.leaseMs, registry: options.registry });
        full = claimed >= limit;
      } catch (error) {
        log.error("job poll failed", { workerId, error });
      }
      if (stopped || full) continue;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, options.intervalMs);
      });
    }
    log.info("job worker stopped", { workerId });
  })();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    wake?.();
    await loop;
  };
}
