// npm run start:api – the core-api fetch handler on a plain Node HTTP server (default port 4000).
import { serve } from "@hono/node-server";
import { closeDb } from "@/lib/db/process-db";
import { getApiApp } from "@/lib/api/app";
import { prepareDatabase } from "@/lib/boot";
import { getEnv, InvalidEnvironmentError } from "@/lib/env";
import { enableDispatchAfterCommit, settleDispatches } from "@/lib/job-runner/dispatch-after-commit";
import { installGracefulShutdown } from "@/lib/jobs/graceful-shutdown";
import { startJobWorker } from "@/lib/job-runner/start-job-worker";
import { log } from "@/lib/log";

let env: ReturnType<typeof getEnv>;
try {
  env = getEnv();
} catch (error) {
  if (!(error instanceof InvalidEnvironmentError)) throw error;
  console.error(error.message);
  process.exit(1);
}
await prepareDatabase();
// A job leaves right after the request that enqueued it, not on the next poll.
enableDispatchAfterCommit({ useAfter: false });
const stopWorker = await startJobWorker();
const server = serve({ fetch: getApiApp().fetch, port: env.API_PORT, hostname: "0.0.0.0" }, (info) =>
  log.info("core-api listening", { port: info.port }),
);

installGracefulShutdown({
  name: "core-api",
  // The job in hand first; then the server (open event streams get 5 s), then the database.
  steps: [
    stopWorker,
    settleDispatches,
    () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      setTimeout(resolve, 5_000).unref();
    }),
    closeDb,
  ],
});
