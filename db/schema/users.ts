import { sql } from "drizzle-orm";
import { boolean, pgEnum, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, idColumn, timestampTz, updatedAt } from "./columns";

export const authProviderEnum = pgEnum("auth_provider", ["local", "clerk"]);

/**
 * A person. `authSubject` is the identity provider's `sub` (Clerk user id, or `local|<email>` for
 * the local provider); it is null for a user who was invited and has not signed in yet.
 */
export const users = pgTable(
  "users",
  {
    id: idColumn(),
    email: text("email").notNull(),
    name: text("name").notNull(),
    authProvider: authProviderEnum("auth_provider").notNull().default("local"),
    authSubject: text("auth_subject"),
    passwordHash: text("password_hash"),
    isActive: boolean("is_active").notNull().default(true),
    deactivatedAt: timestampTz("deactivated_at"),
    lastSignInAt: timestampTz("last_sign_in_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("users_email_lower_key").on(sql`lower(${t.email})`),
    uniqueIndex("users_auth_subject_key").on(t.authSubject),
  ],
);

export type User = typeof users.$inferSelect;
export type NewUser = typeof users.$inferInsert;
