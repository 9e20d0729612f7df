import { log } from "@/lib/log";

export type ShutdownOptions = {
  /** What is shutting down, for the log. */
  name: string;
  /** Steps run in order: stop taking work and finish the job in hand, then close the server and the database. */
  steps: (() => Promise<void>)[];
  /** Longer than this and the process exits 1 anyway (systemd's TimeoutStopSec is 90 s by default). */
  graceMs?: number;
};

/**
 * On SIGTERM or SIGINT: stop claiming jobs, let the one in hand finish (its pass resolves), close the
 * rest, then exit 0. A second signal, or the grace period running out, exits 1 at once. Used by
 * `next start` (with NEXT_MANUAL_SIG_HANDLE, which `npm start` sets, so Next leaves the signals to
 * us), `npm run start:api` and `npm run jobs:work`.
 */
export function installGracefulShutdown(options: ShutdownOptions): void {
  let shuttingDown = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (shuttingDown) {
      log.warn(`${options.name}: second ${signal}, exiting without waiting`);
      process.exit(1);
    }
    shuttingDown = true;
    log.info(`${options.name} shutting down: finishing the work in hand`, { signal });
    const deadline = setTimeout(() => {
      log.error(`${options.name}: the work in hand did not finish within ${options.graceMs ?? 25_000} ms, exiting`);
      process.exit(1);
    }, options.graceMs ?? 25_000);
    deadline.unref();
    void (async () => {
      for (const step of options.steps) {
        try {
          await step();
        } catch (error) {
          log.error(`${options.name}: a shutdown step failed`, { error });
        }
      }
      process.exit(0);
    })();
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
