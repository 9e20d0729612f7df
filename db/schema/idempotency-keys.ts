import { integer, pgTable, primaryKey, text, uuid } from "drizzle-orm/pg-core";
import { createdAt } from "./columns";
import { users } from "./users";

/**
 * An `Idempotency-Key` a caller sent with a /v1 create (POST), kept 24 hours: the request it came
 * with (method, path, SHA-256 of the body) and, once answered, the answer to replay. The primary key
 * is what makes concurrent requests with one key run the operation once.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    method: text("method").notNull(),
    path: text("path").notNull(),
    requestSha256: text("request_sha256").notNull(),
    /** Null while the first request is still running. */
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
