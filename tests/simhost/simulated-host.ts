// The simulated serverless host (docs/deploy.md, "The simulated host"), started for a browser test:
//
// - a fresh PostgreSQL database, migrated by the deploy step (`npm run db:migrate`, as the build
//   command of a Vercel-style host runs it) before any instance starts, then loaded with the demo data;
// - s3rver as the bucket (with the CORS rule of docs/deploy.md), Redis for real time, a fake Plaid API;
// - two instances of the standalone build from one read-only copy of its traced files, each run as
//   `nobody` with only `node` on PATH (no poppler, no ImageMagick), with SERVERLESS=1: no migration and
//   no timer of their own;
// - in front, the freezing proxy (tests/simhost/freezing-proxy.ts): 4.5 MB body limit, requests in
//   turn, each instance frozen half a second after its last answer and thawed for its next request.
//
// No Inngest server can run here: jobs take the path a serverless function without a resident
// worker has, a runner pass in `after()` right after the request that enqueued them commits.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { pathToFileURL } from "node:url";
import { openDb } from "@/db/client";
import { getEnv } from "@/lib/env";
import { loadSealingIdentity } from "@/lib/seals/load-sealing-identity";
import { seedDemo } from "@/lib/seed/seed-demo";
import { startFakePlaid, type FakePlaid } from "../fakes/plaid/server";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";
import { freePort } from "../helpers/free-port";
import { copyStandalone, freshDatabase, REPO, standaloneBuilt, startStandalone, waitFor, type Copy, type Database, type Server } from "../standalone/helpers";
import { startFreezingProxy, type FreezingProxy } from "./freezing-proxy";

const REDIS = process.env.SIMHOST_REDIS_URL ?? "redis://127.0.0.1:6379";

export type SimulatedHost = {
  /** The proxy's origin: the app's APP_URL, where the browser goes. */
  url: string;
  databaseUrl: string;
  proxy: FreezingProxy;
  instances: Server[];
  copy: Copy;
  s3: RunningS3;
  plaid: FakePlaid;
  /** Everything the instances printed. */
  output: () => string;
  stop: () => Promise<void>;
};

/** A development sealing certificate made in a temporary folder, passed as production does (`base64:`). */
function sealingCertificate(): Record<string, string> {
  const dir = mkdtempSync(join(tmpdir(), "csig-simhost-seal-"));
  try {
    loadSealingIdentity({ ...getEnv(), SEALING_P12: undefined, PGLITE_DIR: join(dir, "pglite") });
    return {
      SEALING_P12: `base64:${readFileSync(join(dir, "sealing-dev.p12")).toString("base64")}`,
      SEALING_P12_PASSWORD: readFileSync(join(dir, "sealing-dev.p12.password"), "utf8").trim(),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startSimulatedHost(): Promise<SimulatedHost> {
  if (!standaloneBuilt()) throw new Error("no standalone build (.next/standalone/server.js): run `next build` first");
  const cleanups: (() => Promise<void> | void)[] = [];
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
    cleanups.length = 0;
  };
  try {
    const database: Database | undefined = await freshDatabase("csig_simhost");
    if (!database) throw new Error("PostgreSQL does not answer: the simulated host needs it (TEST_DATABASE_URL)");
    cleanups.push(() => database.drop());

    // The deploy step, before any instance starts: the instances (SERVERLESS=1) never migrate.
    execFileSync(process.execPath, ["--import", "tsx", "scripts/db-migrate.ts"], {
      cwd: REPO,
      env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: "warn" },
      stdio: ["ignore", "ignore", "inherit"],
    });
    const handle = await openDb({ url: database.url }, { max: 1 });
    try {
      await seedDemo(handle.db);
    } finally {
      await handle.close();
    }

    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;
    const s3 = await startS3rver("documents", { corsOrigin: url });
    cleanups.push(() => s3.stop());
    const plaid = await startFakePlaid();
    cleanups.push(() => plaid.close());

    const copy = copyStandalone();
    cleanups.push(() => copy.remove());
    // The platform's waitUntil, preloaded into each instance; outside the read-only app folder.
    const preload = join(copy.root, "wait-until.mjs");
    copyFileSync(join(REPO, "tests", "simhost", "wait-until.mjs"), preload);

    const env: Record<string, string> = {
      DATABASE_URL: database.url,
      DATABASE_POOL_MAX: "3",
      SERVERLESS: "1",
      APP_URL: url,
      AUTH_SECRET: randomBytes(32).toString("base64url"),
      ...sealingCertificate(),
      REALTIME_URL: REDIS,
      TRUSTED_PROXY_HOPS: "1",
      ...s3.env,
      PLAID_CLIENT_ID: plaid.clientId,
      PLAID_SECRET: plaid.secret,
      PLAID_BASE_URL: plaid.url,
      PLAID_ENV: "sandbox",
      BANK_TOKEN_ENCRYPTION_KEY: randomBytes(32).toString("base64"),
    };
    const instances: Server[] = [];
    for (let i = 0; i < 2; i++) {
      // SIMHOST_WAIT_UNTIL=0: no platform waitUntil, so an instance is frozen in the middle of its after() work.
      const nodeArgs = process.env.SIMHOST_WAIT_UNTIL === "0" ? [] : ["--import", pathToFileURL(preload).href];
      const server = startStandalone(copy, await freePort(), env, { nodeArgs, reportPipe: true });
      instances.push(server);
      cleanups.push(() => server.stop());
    }
    await Promise.all(instances.map((server) => waitFor(server, "/ready", 200, 120_000)));

    const proxy = await startFreezingProxy(
      instances.map((server, i) => ({
        name: `instance-${i + 1}`,
        port: Number(new URL(server.base).port),
        pid: server.child.pid,
        waitUntilReports: server.child.stdio[3] as Readable,
      })),
      { port: proxyPort },
    );
    // Before the instances stop: a frozen process cannot act on SIGTERM.
    cleanups.push(() => proxy.close());

    return {
      url,
      databaseUrl: database.url,
      proxy,
      instances,
      copy,
      s3,
      plaid,
      output: () => instances.map((server, i) => `---- instance-${i + 1} ----\n${server.output()}`).join("\n"),
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
