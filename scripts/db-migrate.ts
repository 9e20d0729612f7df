// npm run db:migrate – applies db/migrations to DATABASE_URL (or the embedded PGlite) over one connection.
import { migrateDb, openDb } from "@/db/client";
import { targetFromEnv } from "@/lib/db/process-db";

const handle = await openDb(targetFromEnv(), { max: 1 });
try {
  await migrateDb(handle);
  console.log(`migrations applied (${handle.kind})`);
} finally {
  await handle.close();
}
