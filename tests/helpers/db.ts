import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import postgres from "postgres";
import { migrateDb, openDb, type DbHandle } from "@/db/client";
import { setDbHandle } from "@/lib/db/process-db";

export type TestDb = DbHandle & { url?: string; cleanup: () => Promise<void> };

/**
 * A fresh, migrated database per test file: a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (dropped afterwards), or an in-memory PGlite when it is unset (started from the
 * migrated snapshot tests/global-setup.ts leaves, when there is one; the migrations then find
 * nothing to do).
 */
export async function createTestDb(options: { install?: boolean } = {}): Promise<TestDb> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  let handle: DbHandle;
  let url: string | undefined;
  let drop = async () => {};
  if (serverUrl) {
    const name = `csig_test_${randomBytes(6).toString("hex")}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const parsed = new URL(serverUrl);
    parsed.pathname = `/${name}`;
    url = parsed.toString();
    handle = await openDb({ url });
    drop = async () => {
      const again = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await again.unsafe(`drop database if exists ${name} with (force)`);
      await again.end();
    };
  } else {
    const snapshot = process.env.CSIG_TEST_PGLITE_SNAPSHOT;
    handle = await openDb({ memory: true, ...(snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {}) });
  }
  await migrateDb(handle);
  if (options.install !== false) setDbHandle(handle);
  return {
    ...handle,
    url,
    cleanup: async () => {
      setDbHandle(undefined);
      await handle.close();
      await drop();
    },
  };
}
