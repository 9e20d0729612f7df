// A process with one job in hand when SIGTERM arrives: the job takes ~1.5 s and writes a marker file
// when it finishes. Used by tests/integration/worker-lifecycle.test.ts with the production shutdown.
import { writeFileSync } from "node:fs";
import { installGracefulShutdown } from "@/lib/jobs/graceful-shutdown";
import { newWorkerId, startPollingLoop } from "@/lib/job-runner/start-job-polling";

const marker = process.argv[2]!;
let stop: () => Promise<void> = async () => {};
installGracefulShutdown({ name: "test worker", steps: [() => stop()] });
let started = false;
stop = startPollingLoop({ name: "test worker", workerId: newWorkerId(), intervalMs: 50 }, async () => {
  if (started) return false;
  started = true;
  await new Promise((resolve) => setTimeout(resolve, 10));
  console.log("job in hand");
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  writeFileSync(marker, "finished");
  return false;
});
