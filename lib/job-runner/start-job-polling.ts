import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Db } from "@/db/client";
import { log } from "@/lib/log";
import { registerJobWaker } from "@/lib/jobs/after-commit-hook";
import type { JobRegistry } from "@/lib/jobs/create-job-registry";
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

/** The local runner's loop: `runDueJobs` until stopped. */
export function startJobPolling(db: Db, options: JobPollingOptions): () => Promise<void> {
  const workerId = options.workerId ?? newWorkerId();
  const limit = options.limit ?? 10;
  return startPollingLoop({ name: "job worker", workerId, intervalMs: options.intervalMs }, async () => {
    const { claimed } = await runDueJobs(db, { workerId, limit, leaseMs: options.leaseMs, registry: options.registry });
    return claimed >= limit;
  });
}

/**
 * Calls `pass` in a loop: straight again while it reports a full batch, otherwise after `intervalMs`.
 * A failing pass (database unreachable) is logged and retried on the next tick. Returns a stop
 * function that resolves once the pass in flight has finished.
 */
export function startPollingLoop(
  options: { name: string; workerId: string; intervalMs: number },
  pass: () => Promise<boolean>,
): () => Promise<void> {
  const { name, workerId } = options;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let wake: (() => void) | undefined;
  let again = false;
  let sleeping = false;
  // A job enqueued by a request in this process wakes the loop at once (`dispatchAfterCommit`); one
  // arriving during a pass makes the loop go round again instead of sleeping.
  const unregister = registerJobWaker(() => {
    if (sleeping) wake?.();
    else again = true;
  });

  const loop = (async () => {
    log.info(`${name} started`, { workerId, intervalMs: options.intervalMs });
    while (!stopped) {
      let full = false;
      try {
        full = await pass();
      } catch (error) {
        log.error(`${name} pass failed`, { workerId, error });
      }
      if (stopped || full) continue;
      if (again) {
        again = false;
        continue;
      }
      sleeping = true;
      await new Promise<void>((resolve) => {
        wake = resolve;
        timer = setTimeout(resolve, options.intervalMs);
      });
      sleeping = false;
      clearTimeout(timer);
    }
    unregister();
    log.info(`${name} stopped`, { workerId });
  })();

  return async () => {
    stopped = true;
    clearTimeout(timer);
    wake?.();
    await loop;
  };
}
