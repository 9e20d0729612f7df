// npm run bench:webhooks – outbound webhooks under load, on the local job runner.
//
// 1. Fan-out: 1,000 events (`package.created`, each emitted in its own transaction as a domain write
//    does) to 3 endpoints on loopback. Each receiver verifies every request with the
//    `standardwebhooks` package and the endpoint's secret; the run ends when all 3,000 deliveries
//    verified. Reported: the total time, and p50/p95/max from the event's commit to its verified
//    arrival. Target: p95 ≤ 2 s.
// 2. Signing is not slowed by subscriptions: e-signatures recorded through recordESignature (the
//    domain function /v1 and the signer's page call) with no endpoint, then with 3 endpoints (one of
//    them never answers, so its attempts wait out the 10 s timeout), in alternating blocks so that
//    drift on a shared machine hits both alike. Target: p95 with endpoints ≤ 1.05 × p95 without.
//
// The job runner polls in the same process and is woken after each commit (enableDispatchAfterCommit),
// as `npm start` runs it without Inngest. Options: --events <n> (default 1000), --signatures <n> per side (default 120), --pg-url <url>
// (BENCH_PG_URL, default postgres://postgres@127.0.0.1:5432/postgres): a fresh database
// csig_bench_hooks_<hex> is created, migrated, seeded and dropped afterwards.
// Prints the figures and writes bench/results/webhooks-<time>.json.
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { eq } from "drizzle-orm";
import { Webhook } from "standardwebhooks";
import type { Db } from "@/db/client";
import { locations, webhookEndpoints } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { enableDispatchAfterCommit } from "@/lib/job-runner/dispatch-after-commit";
import { jobRegistry } from "@/lib/job-runner/registry";
import { startJobPolling } from "@/lib/job-runner/start-job-polling";
import { createWebhookEndpoint } from "@/lib/webhooks/create-webhook-endpoint";
import { emitEvent } from "@/lib/webhooks/emit-event";
import { createSignerPackage } from "../tests/helpers/signing-fixtures";
import { withSeededDatabase } from "./seeded-database";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: flags } = parseArgs({ options: { events: { type: "string" }, signatures: { type: "string" }, "pg-url": { type: "string" } } });
const EVENTS = Number(flags.events ?? 1000);
const SIGNATURES = Number(flags.signatures ?? 120);
const adminUrl = flags["pg-url"] ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const P95_TARGET_MS = 2000;
const SLOWDOWN_TARGET = 1.05;

type Receiver = { url: string; arrivals: Map<string, number>; rejected: number; secret: string; close: () => Promise<void> };

/** A receiver that verifies each request and notes when it arrived; `hang` never answers. */
async function startReceiver(mode: "ok" | "hang"): Promise<Receiver> {
  const receiver: Receiver = { url: "", arrivals: new Map(), rejected: 0, secret: "", close: async () => {} };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (mode === "hang") return;
      try {
        const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
        new Webhook(receiver.secret).verify(Buffer.concat(chunks).toString("utf8"), headers);
        receiver.arrivals.set(String(req.headers["webhook-id"]), Date.now());
        res.writeHead(204).end();
      } catch {
        receiver.rejected += 1;
        res.writeHead(400).end();
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
  receiver.close = async () => {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return receiver;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function fanOut(db: Db, organizationId: number, receivers: Receiver[]) {
  const committed = new Map<string, number>();
  const t0 = Date.now();
  for (let i = 0; i < EVENTS; i++) {
    const event = await db.transaction((tx) => emitEvent(tx, "package.created", { packageId: randomUUID(), organizationId }));
    committed.set(event.id, Date.now());
  }
  const emittedMs = Date.now() - t0;
  const deadline = Date.now() + 10 * 60_000;
  while (receivers.some((r) => r.arrivals.size < EVENTS)) {
    if (Date.now() > deadline) throw new Error(`fan-out incomplete: ${receivers.map((r) => r.arrivals.size).join(", ")} of ${EVENTS}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const totalMs = Date.now() - t0;
  const latencies = receivers.flatMap((r) => [...r.arrivals].map(([id, at]) => at - committed.get(id)!)).sort((a, b) => a - b);
  return {
    events: EVENTS,
    endpoints: receivers.length,
    deliveries: latencies.length,
    rejected: receivers.reduce((n, r) => n + r.rejected, 0),
    emitMs: emittedMs,
    totalMs,
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
    maxMs: latencies.at(-1)!,
  };
}

/** `count` documents to sign, one signer each (a fixture package per 10 documents), made before the clock runs. */
async function prepareSignatures(db: Db, label: string, count: number) {
  const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
  const todo: { email: string; packageId: string; documentId: string }[] = [];
  for (let p = 0; todo.length < count; p++) {
    const email = `bench-hooks-${label}-${p}@bench.local`;
    const pkg = await createSignerPackage(db, { location: austin!, signers: [{ email }], documentCount: 10, title: `Bench hooks ${label} ${p}` });
    for (const doc of pkg.documents) todo.push({ email, packageId: pkg.id, documentId: doc.id });
  }
  return todo.slice(0, count);
}

async function timeSignature(db: Db, item: { email: string; packageId: string; documentId: string }): Promise<number> {
  const principal = await resolvePrincipal(db, localSubjectForEmail(item.email));
  const t = performance.now();
  await recordESignature(db, {
    principal,
    packageId: item.packageId,
    documentId: item.documentId,
    signature: { kind: "typed", text: principal.user.name, font: "great-vibes" },
    consent: true,
  });
  return performance.now() - t;
}

async function main() {
  setEnvForTests({ WEBHOOKS_ALLOW_LOOPBACK: "1", LOG_LEVEL: process.env.LOG_LEVEL ?? "warn" });
  await withSeededDatabase(adminUrl, "csig_bench_hooks", async ({ db }) => {
    const receivers: Receiver[] = [];
    let stop: (() => Promise<void>) | undefined;
    try {
      const owner = await resolvePrincipal(db, localSubjectForEmail("owner@demo.local"));
      const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
      const organizationId = austin!.organizationId;
      // As a server runs it: the runner polls every second and is woken right after each commit.
      enableDispatchAfterCommit({ useAfter: false });
      stop = startJobPolling(db, { intervalMs: 1000, registry: jobRegistry });

      // 1. Fan-out.
      for (let i = 0; i < 3; i++) {
        const receiver = await startReceiver("ok");
        receiver.secret = (await createWebhookEndpoint(db, { principal: owner, url: receiver.url, eventTypes: ["package.created"] })).secret;
        receivers.push(receiver);
      }
      console.log(`fan-out: ${EVENTS} events to 3 endpoints…`);
      const fanout = await fanOut(db, organizationId, receivers);
      console.log(
        `  ${fanout.deliveries} deliveries verified (${fanout.rejected} rejected) in ${(fanout.totalMs / 1000).toFixed(1)} s; ` +
          `event → delivery p50 ${fanout.p50Ms} ms, p95 ${fanout.p95Ms} ms, max ${fanout.maxMs} ms (target p95 ≤ ${P95_TARGET_MS} ms)`,
      );
      await db.delete(webhookEndpoints);

      // 2. Recording an e-signature with and without subscriptions, in alternating blocks of 10.
      const without = await prepareSignatures(db, "none", SIGNATURES);
      const withHooks = await prepareSignatures(db, "three", SIGNATURES);
      const hang = await startReceiver("hang");
      receivers.push(hang);
      for (const receiver of [receivers[0]!, receivers[1]!, hang]) {
        receiver.secret = (await createWebhookEndpoint(db, { principal: owner, url: receiver.url })).secret;
      }
      const setActive = (active: boolean) => db.update(webhookEndpoints).set({ status: active ? "active" : "paused" });
      const timesWithout: number[] = [];
      const timesWith: number[] = [];
      for (let i = 0; i < 10; i++) await timeSignature(db, without.pop()!); // warm-up, not counted
      console.log(`signing: ${SIGNATURES} e-signatures without endpoints, ${SIGNATURES} with 3 (one never answers)…`);
      for (let block = 0; without.length > 0 || withHooks.length > 0; block++) {
        const active = block % 2 === 1;
        await setActive(active);
        for (let i = 0; i < 10; i++) {
          const item = (active ? withHooks : without).pop();
          if (!item) break;
          (active ? timesWith : timesWithout).push(await timeSignature(db, item));
        }
      }
      const sortedWithout = timesWithout.sort((a, b) => a - b);
      const sortedWith = timesWith.sort((a, b) => a - b);
      const signing = {
        signaturesEach: sortedWith.length,
        p50WithoutMs: Number(percentile(sortedWithout, 50).toFixed(1)),
        p95WithoutMs: Number(percentile(sortedWithout, 95).toFixed(1)),
        p50WithMs: Number(percentile(sortedWith, 50).toFixed(1)),
        p95WithMs: Number(percentile(sortedWith, 95).toFixed(1)),
      };
      const ratio = signing.p95WithMs / signing.p95WithoutMs;
      console.log(
        `  recordESignature p50 ${signing.p50WithoutMs} → ${signing.p50WithMs} ms, p95 ${signing.p95WithoutMs} → ${signing.p95WithMs} ms ` +
          `(×${ratio.toFixed(3)}; target ≤ ×${SLOWDOWN_TARGET})`,
      );

      const result = {
        date: new Date().toISOString(),
        cores: availableParallelism(),
        loadavg: loadavg(),
        fanout: { ...fanout, targetP95Ms: P95_TARGET_MS, met: fanout.p95Ms <= P95_TARGET_MS && fanout.rejected === 0 },
        signing: { ...signing, ratio: Number(ratio.toFixed(3)), target: SLOWDOWN_TARGET, met: ratio <= SLOWDOWN_TARGET },
      };
      console.log(`\n(${result.cores} cores, load ${loadavg()[0]!.toFixed(2)})`);
      mkdirSync(join(REPO, "bench", "results"), { recursive: true });
      writeFileSync(join(REPO, "bench", "results", `webhooks-${result.date.replace(/[:.]/g, "-")}.json`), `${JSON.stringify(result, null, 2)}\n`);
      if (!result.fanout.met || !result.signing.met) process.exitCode = 2;
    } finally {
      await stop?.();
      for (const receiver of receivers) await receiver.close();
    }
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
