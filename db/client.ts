import { mkdirSync } from "node:fs";
import { resolve } from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { defaultPoolMax } from "./pool-size";
import { acquirePgliteLock, releasePgliteLock } from "./pglite-lock";
import * as schema from "./schema";

export type Schema = typeof schema;
/** Both drivers' databases and their transactions satisfy this type, so queries take `db: Db` first. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export type DbHandle = {
  db: Db;
  kind: "postgres" | "pglite";
  /** The connection string, for PostgreSQL handles. */
  url?: string;
  /** A real round trip; rejects when the database cannot answer within `timeoutMs`. */
  ping: (timeoutMs?: number) => Promise<void>;
  close: () => Promise<void>;
  /** PGlite handles: the whole data directory as an uncompressed tarball (`loadDataDir` reads it back). */
  dumpDataDir?: () => Promise<Blob>;
};

/**
 * `memory` may start from `loadDataDir`, a data directory dumped by `dumpPgliteDataDir` (tests start
 * every file from one migrated snapshot instead of running initdb and the migrations again).
 */
export type DbTarget = { url: string } | { pgliteDir: string } | { memory: true; loadDataDir?: Blob };

export const MIGRATIONS_FOLDER = resolve(process.cwd(), "db/migrations");

/** Opens a database; PostgreSQL pools hold at most `max` connections (default `defaultPoolMax()`; the app passes `databasePoolMax()`). */
export async function openDb(target: DbTarget, options: { max?: number } = {}): Promise<DbHandle> {
  if ("url" in target) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    // With the database unreachable a request fails within the connect timeout (then 503 via the
    // error mapper) instead of hanging; a stuck statement or an abandoned transaction is ended by the
    // server. postgres.js reconnects on the next query, so service recovers without a restart.
    const client = postgres(target.url, {
      max: options.max ?? defaultPoolMax(),
      connect_timeout: 2,
      idle_timeout: 30,
      connection: { statement_timeout: 15_000, idle_in_transaction_session_timeout: 30_000, lock_timeout: 10_000 },
      onnotice: () => {},
    });
    const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
    return {
      db,
      kind: "postgres",
      url: target.url,
      ping: (timeoutMs = 2000) => withTimeout(client`select 1`.then(() => undefined), timeoutMs),
      close: () => client.end({ timeout: 5 }),
    };
  }

  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  let dataDir: string | undefined;
  if ("pgliteDir" in target) {
    dataDir = resolve(target.pgliteDir);
    mkdirSync(dataDir, { recursive: true });
    acquirePgliteLock(dataDir);
  }
  // pg_trgm backs the package list's text search indexes (migration 0005).
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  const loadDataDir = "memory" in target ? target.loadDataDir : undefined;
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(loadDataDir ? { loadDataDir } : {}),
    extensions: { pg_trgm },
  });
  const db = drizzle(client, { schema, casing: "snake_case" }) as unknown as Db;
  return {
    db,
    kind: "pglite",
    ping: async (timeoutMs = 2000) => {
      if (client.closed) throw new Error("database is closed");
      await withTimeout(client.query("select 1").then(() => undefined), timeoutMs);
    },
    close: async () => {
      if (!client.closed) await client.close();
      if (dataDir) releasePgliteLock(dataDir);
    },
    dumpDataDir: () => client.dumpDataDir("none"),
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`database did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Applies the committed migrations. On PostgreSQL they run over one dedicated connection holding a
 * session advisory lock, so two app processes booting together migrate one after the other;
 * PGlite has a single owner and needs no lock.
 */
export async function migrateDb(handle: DbHandle): Promise<void> {
  if (handle.kind === "pglite" || !handle.url) {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    await migrate(handle.db as never, { migrationsFolder: MIGRATIONS_FOLDER });
    return;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const client = postgres(handle.url, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(727274001)`;
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_FOLDER });
    await client`select pg_advisory_unlock(727274001)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}
