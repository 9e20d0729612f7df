// npm run jobs:work – only the local job runner, as its own process (e.g. beside the web app on PostgreSQL).
import { closeDb } from "@/lib/db/process-db";
import { prepareDatabase } from "@/lib/boot";
import { getEnv, isInngestConfigured, isServerless } from "@/lib/env";
import { installGracefulShutdown } from "@/lib/jobs/graceful-shutdown";
import { startJobWorker } from "@/lib/job-runner/start-job-worker";
import { log } from "@/lib/log";

// Nothing to do is not a failure: exit 0, so a service manager (systemd's Restart=on-failure) does not
// restart it in a loop.
if (isInngestConfigured(getEnv())) {
  console.log("Inngest is configured (INNGEST_*): jobs run on Inngest, so there is no local worker to start. Exiting.");
  process.exit(0);
}
if (isServerless(getEnv())) {
  console.log("This is a serverless host (SERVERLESS, VERCEL, ...): a resident job worker cannot run here. Exiting.");
  process.exit(0);
}

const handle = await prepareDatabase();
if (handle.kind === "pglite") {
  log.warn("the embedded PGlite database has one owner: stop the app, or set DATABASE_URL to share PostgreSQL");
}
const stop = await startJobWorker();
// Below the unit's TimeoutStopSec (120 s): a seal in hand gets its time.
installGracefulShutdown({ name: "job worker", steps: [stop, closeDb], graceMs: 110_000 });
