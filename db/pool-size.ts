import { availableParallelism } from "node:os";

/** The pool size without `DATABASE_POOL_MAX`: two connections per core, between 2 and 10. */
export function defaultPoolMax(): number {
  return Math.min(10, Math.max(2, availableParallelism() * 2));
}
