// Next start-up hook: migrate (and seed the embedded default) before the first request, start the job worker.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  // `next build` loads this hook too; a build must not open, migrate or seed any database.
  if (process.env.NEXT_PHASE === "phase-production-build") return;
  const { installPeerAddressHeader } = await import("./lib/net/peer-address");
  installPeerAddressHeader();
  // `npm start` preloads the body guard (lib/net/install-early-body-guard.mjs); without the preload it
  // takes effect from here on (this hook runs when Next handles its first request).
  const { installEarlyBodyGuard } = await import("./lib/net/early-body-guard.mjs");
  const { EARLY_BODY_CAPS } = await import("./lib/next/early-body-caps.mjs");
  installEarlyBodyGuard(EARLY_BODY_CAPS);
  const { prepareDatabase } = await import("./lib/boot");
  const { startJobWorker } = await import("./lib/jobs/start-job-worker");
  await prepareDatabase();
  await startJobWorker();
}
