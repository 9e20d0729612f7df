// Runs once before the test files. On PGlite (no TEST_DATABASE_URL), initdb and the migrations run here
// once; every test file then opens its in-memory database from that snapshot (tests/helpers/db.ts)
// instead of repeating them, which took most of a small file's time.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrateDb, openDb } from "@/db/client";

export default async function setup(): Promise<(() => void) | undefined> {
  if (process.env.TEST_DATABASE_URL) return undefined;
  const handle = await openDb({ memory: true });
  await migrateDb(handle);
  const dump = await handle.dumpDataDir!();
  await handle.close();
  const dir = mkdtempSync(join(tmpdir(), "csig-pglite-snapshot-"));
  const file = join(dir, "migrated.tar");
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  // Test files run in child processes, which inherit this environment.
  process.env.CSIG_TEST_PGLITE_SNAPSHOT = file;
  return () => rmSync(dir, { recursive: true, force: true });
}
