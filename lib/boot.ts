import { sql } from "drizzle-orm";
import { migrateDb, type DbHandle } from "@/db/client";
import { getDbHandle } from "@/lib/db/process-db";
import { organizations } from "@/db/schema";
import { getEnv, isServerless } from "@/lib/env";
import { log } from "@/lib/log";

let prepared: Promise<DbHandle> | undefined;

/**
 * Whether this process applies the migrations when it starts. The embedded default (PGlite) always
 * does: one process owns it. On PostgreSQL a long-running server does too (a session advisory lock
 * serializes processes booting together), but a serverless function never does: a burst of cold
 * starts after a deploy would queue on that lock, so there migrating is the deploy's build step
 * (`npm run db:migrate`) and `/ready` answers 503 while the schema is behind.
 */
export function migratesAtStart(handle: Pick<DbHandle, "kind">, env = getEnv()): boolean {
  return handle.kind === "pglite" || !isServerless(env);
}

/**
 * Start-up for every server process: apply migrations (see `migratesAtStart`), and on the embedded
 * default (PGlite) outside production load the demo dataset into an empty database so the first
 * `npm run dev` has something to show. Production never gets the demo users (their password is public).
 */
export function prepareDatabase(): Promise<DbHandle> {
  prepared ??= (async () => {
    const env = getEnv();
    const handle = await getDbHandle();
    if (migratesAtStart(handle, env)) await migrateDb(handle);
    if (handle.kind === "pglite" && env.NODE_ENV !== "production") {
      const [row] = await handle.db.select({ count: sql<number>`count(*)::int` }).from(organizations);
      if ((row?.count ?? 0) === 0) {
        // Imported here: the demo's module graph (PDF rendering, package creation) is not a production start's.
        const { seedDemo } = await import("@/lib/seed/seed-demo");
        await seedDemo(handle.db);
        log.info("seeded the demo dataset into the embedded database");
      }
    }
    return handle;
  })().catch((error: unknown) => {
    prepared = undefined;
    throw error;
  });
  return prepared;
}
