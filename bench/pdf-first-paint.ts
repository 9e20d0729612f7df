// npm run bench:viewer – how fast the signer's document viewer paints the first PDF page, and how much
// JavaScript the signer package page loads first.
//
// 1. creates a fresh PostgreSQL database (csig_viewer_<random>), migrates and seeds it, and adds a package
//    for signer@demo.local with one 20-page document (pdf-lib, lib/pdf/pdf.ts);
// 2. starts `next start` from the production build (built first when .next/BUILD_ID is missing) on 127.0.0.1;
// 3. signs in as signer@demo.local / demo-signing through the sign-in page in headless Chromium
//    (/usr/bin/chromium, playwright-core);
// 4. for the 2-page demo package and the 20-page package: one discarded warm-up, then N navigations, each in a
//    fresh browser context (empty cache, the session cookie only), reading the viewer's
//    `performance.mark("pdf-first-page-painted")` (ms since navigation start); prints the median;
// 5. first-load JavaScript of every signer route and home (bench/first-load-js.ts): every <script src> and
//    script preload in the page's HTML, fetched and gzipped (level 9), summed; pdf.js (lazy chunk + worker)
//    is reported apart from it;
// 6. screenshots of the demo package at 390 px and 1280 px into bench/results/;
// 7. always stops the server and drops the database (also on error and SIGINT/SIGTERM).
//
// Options (flag, or environment variable):
//   --runs <n>          VIEWER_RUNS         measured navigations per document (default 5)
//   --app-dir <dir>     BENCH_APP_DIR       where `next start` runs (default: this repository)
//   --pg-url <url>      BENCH_PG_URL        admin connection (default postgres://postgres@127.0.0.1:5432/postgres)
//   --port <n>          VIEWER_PORT         port for `next start` (default 4281)
//   --chromium <path>   CHROMIUM_PATH       default /usr/bin/chromium
//   --strict            BENCH_STRICT=1      exit 2 when a target (1.5 s median, 150 kB gzipped) is missed
// Only 127.0.0.1 is ever contacted.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { gzipSync } from "node:zlib";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { chromium, type Browser, type BrowserContext, type Cookie } from "playwright-core";
import { openDb } from "@/db/client";
import { packageDocuments, packageSigners, signatureRequests, signingPackages, users } from "@/db/schema";
import { inspectPdf, renderAgreementPdf } from "@/lib/pdf/pdf";
import { firstLoadTable, measureSignerRoutes, signInAsSigner, signerPagePasses, TARGET_FIRST_LOAD_GZIP_KB } from "./first-load-js";
import { putObject } from "@/lib/storage/objects";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_FIRST_PAINT_MS = 1500;

const { values: flags } = parseArgs({
  options: {
    runs: { type: "string" },
    "app-dir": { type: "string" },
    "pg-url": { type: "string" },
    port: { type: "string" },
    chromium: { type: "string" },
    strict: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
if (flags.help) {
  console.log((readFileSync(fileURLToPath(import.meta.url), "utf8").split("\nimport ")[0] ?? "").replace(/^\/\/ ?/gm, ""));
  process.exit(0);
}

const options = {
  runs: Math.max(1, Math.round(Number(flags.runs ?? process.env.VIEWER_RUNS ?? 5))),
  appDir: resolve(flags["app-dir"] ?? process.env.BENCH_APP_DIR ?? REPO),
  pgUrl: flags["pg-url"] ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  port: Number(flags.port ?? process.env.VIEWER_PORT ?? 4281),
  chromium: flags.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  strict: Boolean(flags.strict) || ["1", "true"].includes((process.env.BENCH_STRICT ?? "").toLowerCase()),
};
if (!Number.isFinite(options.runs) || !Number.isInteger(options.port)) throw new Error("--runs and --port must be numbers");

const runId = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = join(REPO, "bench", "results");
mkdirSync(resultsDir, { recursive: true });
const base = `http://127.0.0.1:${options.port}`;

// ---------------------------------------------------------------------------------------------- cleanup

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let dbToDrop: string | undefined;
let cleaning: Promise<void> | undefined;

function killServer(signal: NodeJS.Signals) {
  if (!server?.pid || server.exitCode !== null || server.signalCode !== null) return;
  try {
    process.kill(-server.pid, signal);
  } catch {
    server.kill(signal);
  }
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    await browser?.close().catch(() => {});
    if (server && server.exitCode === null && server.signalCode === null) {
      const exited = new Promise<void>((done) => server!.once("exit", () => done()));
      killServer("SIGTERM");
      await Promise.race([exited, new Promise((done) => setTimeout(done, 5000))]);
      killServer("SIGKILL");
    }
    if (dbToDrop) {
      const admin = postgres(options.pgUrl, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists "${dbToDrop}" with (force)`).catch((e: unknown) => console.error(String(e)));
      await admin.end({ timeout: 5 });
      console.log(`dropped database ${dbToDrop}`);
    }
  })();
  return cleaning;
}
process.on("exit", () => killServer("SIGKILL"));
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => void cleanup().finally(() => process.exit(130)));
}

// ------------------------------------------------------------------------------------------- helpers

function run(label: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr.on("data", (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("exit", (code) => {
      clearTimeout(timer);
      if (code === 0) done();
      else fail(new Error(`${label} failed (exit ${code}):\n${output.split("\n").slice(-30).join("\n")}`));
    });
  });
}

async function waitReady(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (server && (server.exitCode !== null || server.signalCode !== null)) throw new Error("next start exited early");
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(2000) })).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`not ready: ${url}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Adds a sent package for the signer with one `pages`-page document; returns the package id. */
async function addLongPackage(databaseUrl: string, pages: number): Promise<string> {
  const handle = await openDb({ url: databaseUrl }, { max: 1 });
  try {
    const db = handle.db;
    const [signer] = await db.select().from(users).where(eq(users.email, "signer@demo.local"));
    const [demo] = await db.select().from(signingPackages).where(eq(signingPackages.title, "Retail installment contract — Sam Signer"));
    if (!signer || !demo) throw new Error("demo data missing (signer@demo.local or the sample package)");
    const bytes = await renderAgreementPdf({ title: `Loan agreement (${pages} pages)`, parties: ["Buyer: Sam Signer"], pages });
    const info = await inspectPdf(bytes);
    return await db.transaction(async (tx) => {
      const [pkg] = await tx
        .insert(signingPackages)
        .values({
          organizationId: demo.organizationId,
          companyId: demo.companyId,
          locationId: demo.locationId,
          title: `Viewer benchmark — ${pages} pages`,
          status: "sent",
          sentAt: new Date(),
        })
        .returning();
      const [doc] = await tx
        .insert(packageDocuments)
        .values({ packageId: pkg!.id, name: `Loan agreement ${pages} pages.pdf`, storageKey: (await putObject(tx, { bytes, contentType: "application/pdf" })).storageKey, sizeBytes: info.sizeBytes, sha256: info.sha256, pageCount: info.pageCount, position: 0 })
        .returning();
      const [row] = await tx
        .insert(packageSigners)
        .values({ packageId: pkg!.id, userId: signer.id, name: signer.name, email: signer.email, routingOrder: 1, status: "notified" })
        .returning();
      await tx.insert(signatureRequests).values({ packageId: pkg!.id, documentId: doc!.id, signerId: row!.id });
      return pkg!.id;
    });
  } finally {
    await handle.close();
  }
}

type Paint = { firstPaintMs: number; lazy: { url: string; gzipBytes: number }[] };

/** One cold navigation (fresh context, empty cache) to the package page; the viewer's first-paint mark. */
async function measurePaint(b: Browser, cookies: Cookie[], packageId: string, initialScripts: Set<string>): Promise<Paint> {
  const context: BrowserContext = await b.newContext({ viewport: { width: 1280, height: 900 } });
  await context.addCookies(cookies);
  const page = await context.newPage();
  const lazy: Promise<{ url: string; gzipBytes: number }>[] = [];
  page.on("response", (response) => {
    const url = new URL(response.url());
    if (!url.pathname.startsWith("/_next/static/") || initialScripts.has(url.pathname)) return;
    if (!/\.(m?js)$/.test(url.pathname)) return;
    lazy.push(response.body().then((body) => ({ url: url.pathname, gzipBytes: gzipSync(body, { level: 9 }).byteLength })));
  });
  await page.goto(`${base}/signings/${packageId}`);
  await page.waitForSelector("[data-first-page-painted]", { timeout: 30_000 });
  const firstPaintMs = await page.evaluate(() => performance.getEntriesByName("pdf-first-page-painted")[0]?.startTime ?? Number.NaN);
  const bodies = await Promise.all(lazy);
  await context.close();
  return { firstPaintMs, lazy: bodies };
}

// ---------------------------------------------------------------------------------------------- main

async function main() {
  const dbName = `csig_viewer_${randomBytes(5).toString("hex")}`;
  const admin = postgres(options.pgUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${dbName}"`);
  await admin.end();
  dbToDrop = dbName;
  const parsed = new URL(options.pgUrl);
  parsed.pathname = `/${dbName}`;
  const databaseUrl = parsed.toString();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NEXT_TELEMETRY_DISABLED: "1",
    DATABASE_URL: databaseUrl,
    AUTH_SECRET: randomBytes(32).toString("base64url"),
    APP_URL: base,
    LOG_LEVEL: "warn",
  };
  await run("db:seed", ["--import", "tsx", "scripts/db-seed.ts"], REPO, env, 120_000);
  const longId = await addLongPackage(databaseUrl, 20);
  console.log(`database ${dbName} seeded; 20-page package ${longId}`);

  if (!existsSync(join(options.appDir, ".next", "BUILD_ID"))) {
    console.log(`no production build in ${options.appDir}; running next build…`);
    await run("next build", ["node_modules/next/dist/bin/next", "build"], options.appDir, { ...env, NODE_ENV: "production" }, 15 * 60_000);
  }
  const logFile = join(resultsDir, `viewer-next-${runId}.log`);
  const log = createWriteStream(logFile);
  server = spawn(process.execPath, ["server.mjs", "--hostname", "127.0.0.1", "--port", String(options.port)], {
    cwd: options.appDir,
    env: { ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  server.stdout?.pipe(log);
  server.stderr?.pipe(log);
  await waitReady(`${base}/ready`, 120_000);
  console.log(`next start up on ${base} (pid ${server.pid}), log ${logFile}`);

  browser = await chromium.launch({ executablePath: options.chromium, args: ["--no-sandbox", "--disable-gpu"] });
  const cookies = await signInAsSigner(browser, base);
  const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join("; ");

  const handle = await openDb({ url: databaseUrl }, { max: 1 });
  const [demo] = await handle.db.select().from(signingPackages).where(eq(signingPackages.title, "Retail installment contract — Sam Signer"));
  await handle.close();
  const targets = [
    { name: "demo package (2 pages)", id: demo!.id },
    { name: "20-page document", id: longId },
  ];

  const routes = await measureSignerRoutes({ base, databaseUrl, cookieHeader });
  const initial = new Set(routes[0]!.scripts.map((s) => s.src));

  const paints: { name: string; runsMs: number[]; medianMs: number; lazy: Paint["lazy"] }[] = [];
  for (const target of targets) {
    await measurePaint(browser, cookies, target.id, initial); // warm-up: server caches, Chromium's compiled-code cache
    const runs: Paint[] = [];
    for (let i = 0; i < options.runs; i++) runs.push(await measurePaint(browser, cookies, target.id, initial));
    const runsMs = runs.map((r) => Math.round(r.firstPaintMs));
    paints.push({ name: target.name, runsMs, medianMs: median(runsMs), lazy: runs[0]!.lazy });
  }

  const shots: string[] = [];
  for (const width of [390, 1280]) {
    const context = await browser.newContext({ viewport: { width, height: width < 500 ? 844 : 900 }, deviceScaleFactor: width < 500 ? 3 : 1 });
    await context.addCookies(cookies);
    const page = await context.newPage();
    await page.goto(`${base}/signings/${demo!.id}`);
    await page.waitForSelector("[data-first-page-painted]");
    await page.waitForTimeout(500);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    const file = join(resultsDir, `viewer-${width}px-${runId}.png`);
    await page.screenshot({ path: file });
    shots.push(`${file} (horizontal overflow ${overflow}px)`);
    await context.close();
  }

  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log("\nfirst PDF page painted (ms since navigation start, cold cache, Chromium 1280×900):");
  for (const p of paints) {
    const verdict = p.medianMs <= TARGET_FIRST_PAINT_MS ? "PASS" : "FAIL";
    console.log(`  ${p.name.padEnd(24)} median ${String(p.medianMs).padStart(5)} ms  runs [${p.runsMs.join(", ")}]  ${verdict} (≤ ${TARGET_FIRST_PAINT_MS} ms)`);
  }
  const sizeVerdict = signerPagePasses(routes) ? "PASS" : "FAIL";
  console.log(`\nfirst-load JS, gzip -9 of every <script src>/script preload in the HTML (target ≤ ${TARGET_FIRST_LOAD_GZIP_KB} kB on /signings/[id]):\n`);
  console.log(firstLoadTable(routes));
  console.log(`\n  fetched after the first load on /signings/[id] (pdf.js, its worker, lazily imported pieces; gzip -9):`);
  for (const file of paints[0]!.lazy) console.log(`    ${file.url}  ${kb(file.gzipBytes)} kB`);
  console.log(`\nscreenshots:\n  ${shots.join("\n  ")}`);

  const out = join(resultsDir, `viewer-${runId}.json`);
  writeFileSync(out, JSON.stringify({ runId, options, paints, firstLoad: routes, shots }, null, 2));
  console.log(`\nresults: ${out}`);
  const missed = paints.some((p) => p.medianMs > TARGET_FIRST_PAINT_MS) || sizeVerdict === "FAIL";
  return options.strict && missed ? 2 : 0;
}

main()
  .then(async (code) => {
    await cleanup();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanup();
    process.exit(1);
  });
