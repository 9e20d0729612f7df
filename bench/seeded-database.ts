// The in-process benches' database: a fresh PostgreSQL database `<prefix>_<hex>` on the server that
// `adminUrl` names, migrated and seeded with the demo data as a deployment would be, installed as the
// process's database (what the job runner and the domain functions use), and dropped afterwards,
// whether the bench passed, missed its target or threw.
import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDb, openDb, type Db } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";
import { seedDemo } from "@/lib/seed/seed-demo";

export type SeededDatabase = {
  db: Db;
  /** The database's name (e.g. for `pg_database_size`). */
  name: string;
  /** A connection to the server's maintenance database, open for the bench's duration. */
  admin: postgres.Sql;
};

/** Runs `bench` against a fresh, migrated and seeded database and drops it afterwards; `bench`'s own clean-up runs first. */
export async function withSeededDatabase<T>(adminUrl: string, prefix: string, bench: (database: SeededDatabase) => Promise<T>): Promise<T> {
  const name = `${prefix}_${randomBytes(5).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const handle = await openDb({ url: url.toString() });
  try {
    await migrateDb(handle);
    setDbHandle(handle);
    await seedDemo(handle.db);
    return await bench({ db: handle.db, name, admin });
  } finally {
    setDbHandle(undefined);
    await handle.close();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}
