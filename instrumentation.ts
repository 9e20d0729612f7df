// Next start-up hook: prepare the database (migrations on a long-running server, never on a serverless
// cold start: lib/boot.ts), start the job worker (none on a serverless host), handle SIGTERM gracefully.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` loads this hook too; a build must not open, migrate or seed any database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { getEnv, isServerless } = await import("./lib/env");
  const { prepareDatabase } = await import("./lib/boot");
  const { startJobWorker } = await import("./lib/job-runner/start-job-worker");
  await prepareDatabase();
  // A job leaves right after the request that enqueued it commits (Next's after()), not on a timer.
  const { enableDispatchAfterCommit } = await import("./lib/job-runner/dispatch-after-commit");
  enableDispatchAfterCommit({ useAfter: true });
  const stopWorker = await startJobWorker();
  // With NEXT_MANUAL_SIG_HANDLE (`npm start` sets it) Next leaves SIGTERM to us: the job in hand finishes first.
  if (getEnv().NEXT_MANUAL_SIG_HANDLE && !isServerless()) {
    const { installGracefulShutdown } = await import("./lib/jobs/graceful-shutdown");
    const { closeDb } = await import("./lib/db/process-db");
    const { settleDispatches } = await import("./lib/job-runner/dispatch-after-commit");
    installGracefulShutdown({ name: "web app", steps: [stopWorker, settleDispatches, closeDb] });
  }
}
