import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { migrateDb, openDb } from "@/db/client";
import { seedDemo } from "@/lib/seed/seed-demo";
import { e2eDatabaseUrl } from "./fixtures";

/**
 * A fresh `csig_e2e_<hex>` database beside the run's, migrated and seeded with the demo data, for a
 * journey that starts its own server (with its own fakes) instead of sharing the run's. `drop` removes
 * it, connections and all.
 */
export async function createJourneyDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const url = new URL(e2eDatabaseUrl());
  url.pathname = `/csig_e2e_${randomBytes(6).toString("hex")}`;
  const name = url.pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = "/postgres";
  const run = async (statement: string) => {
    const sql = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    try {
      await sql.unsafe(statement);
    } finally {
      await sql.end();
    }
  };
  await run(`create database ${name}`);
  const handle = await openDb({ url: url.toString() }, { max: 1 });
  try {
    await migrateDb(handle);
    await seedDemo(handle.db);
  } finally {
    await handle.close();
  }
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}
