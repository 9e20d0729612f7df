// npm run db:seed – loads the demo dataset described in the README (idempotent).
import { migrateDb, openDb } from "@/db/client";
import { targetFromEnv } from "@/lib/db/process-db";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "@/lib/seed/seed-demo";

const handle = await openDb(targetFromEnv(), { max: 1 });
try {
  await migrateDb(handle);
  const result = await seedDemo(handle.db);
  console.log(result.seeded ? "demo dataset loaded" : "demo dataset already present; nothing changed");
  console.log(`users (password "${DEMO_PASSWORD}"): ${DEMO_USERS.map((u) => u.email).join(", ")}`);
} finally {
  await handle.close();
}
