import { sql } from "drizzle-orm";
import { getDbHandle, migrateDb, type DbHandle } from "@/db/client";
import { organizations } from "@/db/schema";
import { log } from "@/lib/log";
import { seedDemo } from "@/lib/seed/seed-demo";

let prepared: Promise<DbHandle> | undefined;

/**
 * Start-up for every server process: apply migrations, and on the embedded default (PGlite) load
 * the demo dataset into an empty database so the first `npm run dev` has something to show.
 */
export function prepareDatabase(): Promise<DbHandle> {
  prepared ??= (async () => {
    const handle = await getDbHandle();
    await migrateDb(handle);
    if (handle.kind === "pglite") {
      const [row] = await handle.db.select({ count: sql<number>`count(*)::int` }).from(organizations);
      if ((row?.count ?? 0) === 0) {
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
