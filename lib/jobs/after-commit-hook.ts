import { log } from "@/lib/log";

/**
 * The hook `enqueueJob` calls for every new row, and the resident runners' wake-ups. What it does is
 * installed by a server (`enableDispatchAfterCommit` in dispatch-after-commit.ts); until then it does
 * nothing, so tests and scripts that enqueue keep their rows queued until they run them.
 */

export type JobKick = (jobId: string) => void;

type State = { kick?: JobKick; wakers: Set<() => void>; pending: Set<Promise<void>> };
// Next bundles server code into several module graphs; a global keeps one state per process.
const globalState = globalThis as typeof globalThis & { __closingSigningJobKick?: State };
const state: State = (globalState.__closingSigningJobKick ??= { wakers: new Set(), pending: new Set() });

export function installJobKick(kick: JobKick | undefined): void {
  state.kick = kick;
}

/** A resident runner's loop registers how to wake it (`startPollingLoop`). */
export function registerJobWaker(wake: () => void): () => void {
  state.wakers.add(wake);
  return () => state.wakers.delete(wake);
}

/** Wakes every resident runner of this process; false when there is none. */
export function wakeJobRunners(): boolean {
  for (const wake of state.wakers) wake();
  return state.wakers.size > 0;
}

/** Runs `work` in the background, logged on failure, awaited by `settleDispatches`. */
export function trackDispatch(work: () => Promise<void>): Promise<void> {
  const running = work().catch((error: unknown) => log.warn("dispatch after commit failed; the outbox relay will retry", { error }));
  state.pending.add(running);
  void running.finally(() => state.pending.delete(running));
  return running;
}

/** Resolves when every dispatch started so far has finished (tests, graceful shutdown). */
export async function settleDispatches(): Promise<void> {
  while (state.pending.size > 0) await Promise.allSettled([...state.pending]);
}

/** Called by `enqueueJob` for every new row. Never throws and never delays the caller. */
export function dispatchAfterCommit(jobId: string): void {
  state.kick?.(jobId);
}
