import { sql } from "drizzle-orm";
import type { Db } from "./client";
// Bundled with the code (not read from disk at run time), so a serverless function needs no extra file.
import journal from "./migrations/meta/_journal.json";

export type MigrationStatus =
  | { current: true; applied: string | undefined }
  | { current: false; missing: string[]; reason: string };

type JournalEntry = { tag: string; when: number };

/** The migrations this release was built with, oldest first. */
export function releaseMigrations(): JournalEntry[] {
  return (journal.entries as JournalEntry[]).map(({ tag, when }) => ({ tag, when })).sort((a, b) => a.when - b.when);
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  if (Array.isArray(result)) return result as Record<string, unknown>[];
  return ((result as { rows?: Record<string, unknown>[] }).rows ?? []) as Record<string, unknown>[];
}

/**
 * Compares the migrations applied to the database (drizzle's `__drizzle_migrations`, whose
 * `created_at` is the journal's `when` of each applied file) with this release's journal. A database
 * ahead of the code (a newer release migrated it) counts as current: migrations only add.
 */
export async function readMigrationStatus(db: Db, entries: JournalEntry[] = releaseMigrations()): Promise<MigrationStatus> {
  const [table] = rowsOf(await db.execute(sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`));
  let lastApplied = -1;
  if (table?.present === true) {
    const [row] = rowsOf(await db.execute(sql`select max(created_at)::text as last from drizzle.__drizzle_migrations`));
    if (row?.last != null) lastApplied = Number(row.last);
  }
  const missing = entries.filter((entry) => entry.when > lastApplied).map((entry) => entry.tag);
  if (missing.length === 0) {
    const applied = entries.filter((entry) => entry.when <= lastApplied).at(-1)?.tag;
    return { current: true, applied };
  }
  const count = missing.length === 1 ? "1 migration is" : `${missing.length} migrations are`;
  return {
    current: false,
    missing,
    reason: `the database schema is behind this release: ${count} not applied (${missing.join(", ")}); run npm run db:migrate`,
  };
}
