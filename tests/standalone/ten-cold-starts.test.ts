// Ten serverless instances started at once on one PostgreSQL database never queue on the migration
// lock: while another session holds that lock (a deploy's `npm run db:migrate` still running, or a
// long-running server migrating), all ten answer /ready within a bound set by one instance's start,
// and pg_locks never shows one of them waiting on an advisory lock. A start that migrated would block
// on the held lock and never become ready.
//
// Needs a production build (`next build`): `npm run test:standalone`. Under `npm test` (before CI's build)
// it skips when there is none.
import { migrateDb, openDb } from "@/db/client";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/free-port";
import { copyStandalone, freshDatabase, standaloneBuilt, startStandalone, waitFor, type Copy, type Database, type Server } from "./helpers";

const built = standaloneBuilt();
/** The key db/client.ts's migrateDb locks. */
const MIGRATION_LOCK_KEY = 727274001;
const INSTANCES = 10;

describe.skipIf(!built)("ten serverless cold starts at once", () => {
  let copy: Copy;
  let database: Database | undefined;
  const servers: Server[] = [];

  beforeAll(async () => {
    copy = copyStandalone();
    database = await freshDatabase("csig_ten_starts");
    if (database) {
      const handle = await openDb({ url: database.url }, { max: 1 });
      await migrateDb(handle);
      await handle.close();
    }
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await database?.drop();
    copy?.remove();
  });

  it("all answer /ready while the migration lock is held, within a bound of one start, none waiting on it", async (ctx) => {
    if (!database) ctx.skip();
    const env = { AUTH_SECRET: process.env.AUTH_SECRET!, DATABASE_URL: database!.url, SERVERLESS: "1" };

    // One instance alone: the reference start.
    const single = startStandalone(copy, await freePort(), env);
    servers.push(single);
    const singleMs = await waitFor(single, "/ready", 200);
    await single.stop();

    const holder = postgres(database!.url, { max: 1, onnotice: () => {} });
    const watcher = postgres(database!.url, { max: 1, onnotice: () => {} });
    try {
      await holder`select pg_advisory_lock(${MIGRATION_LOCK_KEY})`;
      const ports = await Promise.all(Array.from({ length: INSTANCES }, () => freePort()));
      const ten = ports.map((port) => startStandalone(copy, port, env));
      servers.push(...ten);

      // pg_locks, sampled while they start: any advisory lock besides the holder's is a start touching the migration lock.
      const holderPid = (await holder<{ pid: number }[]>`select pg_backend_pid() as pid`)[0]!.pid;
      let watching = true;
      const seen: { pid: number; granted: boolean }[] = [];
      let samples = 0;
      const sampling = (async () => {
        while (watching) {
          const rows = await watcher<{ pid: number; granted: boolean }[]>`
            select pid, granted from pg_locks where locktype = 'advisory' and pid <> ${holderPid}`;
          seen.push(...rows);
          samples++;
          await new Promise((r) => setTimeout(r, 25));
        }
      })();

      const times = await Promise.all(ten.map((server) => waitFor(server, "/ready", 200, 120_000)));
      watching = false;
      await sampling;
      const slowest = Math.max(...times);
      // Ten starts share the machine's cores, so each is slower than one alone; queued one behind another
      // on a lock, they would take ten starts in a row at best, and here (the lock stays held) forever.
      // The bound: twice ten starts in a row.
      const bound = 2 * INSTANCES * singleMs;
      console.log(`one start ${singleMs.toFixed(0)} ms; ten at once: ${times.map((t) => t.toFixed(0)).join(", ")} ms (bound ${bound.toFixed(0)} ms, ${samples} pg_locks samples)`);
      expect(samples).toBeGreaterThan(10);
      expect(seen).toEqual([]);
      expect(slowest).toBeLessThanOrEqual(bound);
      // The lock was held throughout: nobody took it from the holder.
      const [held] = await watcher<{ n: number }[]>`select count(*)::int as n from pg_locks where locktype = 'advisory' and pid = ${holderPid} and granted`;
      expect(held!.n).toBe(1);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await holder.end();
      await watcher.end();
    }
  }, 240_000);
});
