import { index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";

/**
 * The local job runner's queue. A worker claims a due row with `FOR UPDATE SKIP LOCKED` and a lease
 * (`lockedUntil`), so two app processes never run the same attempt and a crashed worker's job is
 * picked up again when its lease runs out. With Inngest configured the table is an outbox: committed
 * `queued` rows are sent as events and become `dispatched`.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: idColumn(),
    name: text("name").notNull(),
    payload: jsonb("payload").notNull(),
    status: text("status", { enum: ["queued", "running", "succeeded", "failed", "dispatched"] }).notNull().default("queued"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    runAt: timestampTz("run_at").notNull().defaultNow(),
    lockedBy: text("locked_by"),
    lockedUntil: timestampTz("locked_until"),
    lastError: text("last_error"),
    idempotencyKey: text("idempotency_key"),
    /**
     * Whose work this is (an organization), for jobs that share a budget fairly: the local runner
     * claims the due job whose key has the fewest jobs running first, and Inngest runs one at a time
     * per key (the event carries it).
     */
    fairnessKey: text("fairness_key"),
    finishedAt: timestampTz("finished_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("jobs_due_idx").on(t.status, t.runAt),
    uniqueIndex("jobs_idempotency_key").on(t.name, t.idempotencyKey),
  ],
);

export type Job = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
