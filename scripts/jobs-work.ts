// npm run jobs:work – only the local job runner, as its own process (e.g. beside the web app on PostgreSQL).
import { closeDb } from "@/db/client";
import { prepareDatabase } from "@/lib/boot";
import { getEnv, isInngestConfigured } from "@/lib/env";
import { startJobWorker } from "@/lib/jobs/start-job-worker";
import { log } from "@/lib/log";

if (isInngestConfigured(getEnv())) {
  console.error("Inngest is configured (INNGEST_*): jobs run on Inngest, so there is no local worker to start.");
  process.exit(1);
}

const handle = await prepareDatabase();
if (handle.kind === "pglite") {
  log.warn("the embedded PGlite database has one owner: stop the app, or set DATABASE_URL to share PostgreSQL");
}
const stop = await startJobWorker();

async function shutdown(signal: string): Promise<void> {
  log.info("job worker shutting down", { signal });
  await stop();
  await closeDb();
  process.exit(0);
}
process.once("SIGINT", () => void shutdown("SIGINT"));
process.once("SIGTERM", () => void shutdown("SIGTERM"));
