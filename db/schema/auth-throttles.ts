import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { timestampTz, updatedAt } from "./columns";

/**
 * Failed authentication attempts per key (`account:<email>`, `client:<ip>`, `api-key-client:<ip>`):
 * the failures counted in the current window and, once a limit is reached, the time until which
 * attempts are refused. Kept in the database so every process enforces the same limits.
 */
export const authThrottles = pgTable("auth_throttles", {
  key: text("key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  windowStartedAt: timestampTz("window_started_at").notNull().defaultNow(),
  lockedUntil: timestampTz("locked_until"),
  updatedAt: updatedAt(),
});

export type AuthThrottle = typeof authThrottles.$inferSelect;
export type NewAuthThrottle = typeof authThrottles.$inferInsert;
