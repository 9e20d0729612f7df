import { getEnv, databasePoolMax } from "@/lib/env";
import { openDb, type Db, type DbHandle, type DbTarget } from "@/db/client";

/**
 * The process's database, opened from the environment (`DATABASE_URL`, else PGlite in `PGLITE_DIR`;
 * `DATABASE_POOL_MAX`). db/ knows how to open a database; which one this process uses is configuration,
 * read here.
 */
export function targetFromEnv(env = getEnv()): DbTarget {
  return env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: env.PGLITE_DIR };
}

type GlobalDb = { handle?: Promise<DbHandle> };
// Next bundles server code into several module graphs; a global keeps one database per process.
const globalDb = globalThis as typeof globalThis & { __closingSigningDb?: GlobalDb };
const state: GlobalDb = (globalDb.__closingSigningDb ??= {});

/** The process-wide database, opened on first use from the environment. */
export function getDbHandle(): Promise<DbHandle> {
  state.handle ??= openDb(targetFromEnv(), { max: databasePoolMax() }).catch((error: unknown) => {
    state.handle = undefined;
    throw error;
  });
  return state.handle;
}

export async function getDb(): Promise<Db> {
  return (await getDbHandle()).db;
}

/** Tests and the standalone server install their own handle. */
export function setDbHandle(handle: DbHandle | undefined): void {
  state.handle = handle ? Promise.resolve(handle) : undefined;
}

export async function closeDb(): Promise<void> {
  const handle = state.handle;
  state.handle = undefined;
  if (handle) await (await handle).close();
}
