// npm run bench – throughput of the core-api against a bare node:http baseline measured in the same run.
//
// 1. creates a fresh PostgreSQL database (csig_bench_<random>), migrates and seeds it, mints a token
//    for manager@demo.local;
// 2. starts (a) a bare node:http JSON server, (b) the standalone core-api as production runs it: the
//    bundle dist/core-api.mjs (rebuilt first by scripts/build-api.mjs) under plain node with the node flags of
//    package.json's start:api script (bench/start-api-command.ts),
//    (c) optionally `next start` from a production build (built first when none exists);
// 3. runs autocannon (warm-up, then a fixed duration) against each target, in interleaved rounds (every
//    target once per round, default 3 rounds), samples the server's RSS, prints a table of the medians
//    with ratios to the baseline, `next /v1` against `next /health` per round, the peak RSS of each
//    server and the targets' verdicts, writes JSON to bench/results/;
// 3b. with `next start`: the first-load JavaScript of every signer route and home, signed in as
//    signer@demo.local through the sign-in page in headless Chromium (bench/first-load-js.ts; target
//    ≤ 150 kB gzipped on /signings/[id]), and every script the package page loads in Chromium before
//    the first interaction, lazy chunks included (bench/page-scripts.ts; target: all but pdf.js ≤ 150 kB);
// 3c. with --soak: the session load against `next start` for 10 minutes, RSS sampled every second,
//    the peak of each minute printed and growth after the first two minutes judged;
// 4. always stops every server and drops the database (also on error and SIGINT/SIGTERM).
//
// Options (flag, or environment variable):
//   --duration <s>      BENCH_DURATION      measured seconds per target (default 10)
//   --warmup <s>        BENCH_WARMUP        warm-up seconds per target, discarded (default 3)
//   --connections <n>   BENCH_CONNECTIONS   concurrent connections (default 16)
//   --rounds <n>        BENCH_ROUNDS        interleaved rounds over all targets; the table shows medians (default 3)
//   --soak              BENCH_SOAK=1        afterwards, load `next /v1/signing/session` for --soak-minutes (default 10)
//   --soak-minutes <m>  BENCH_SOAK_MINUTES  and report RSS per minute (needs next)
//   --skip-next         BENCH_NEXT=0        do not start or measure `next start`
//   --api-from-source   BENCH_API_SOURCE=1  run the core-api from TypeScript through tsx instead of the bundle
//   --app-dir <dir>     BENCH_APP_DIR       where `next start` runs (and builds when .next/BUILD_ID is missing);
//                                           default: this repository
//   --pg-url <url>      BENCH_PG_URL        admin connection used to create/drop the database
//                                           (default postgres://postgres@127.0.0.1:5432/postgres)
//   --port-base <n>     BENCH_PORT_BASE     baseline, core-api and next listen on n, n+1, n+2 (default: free ports)
//   --chromium <path>   CHROMIUM_PATH       browser for the first-load sign-in (default /usr/bin/chromium)
//   --strict            BENCH_STRICT=1      exit 2 when the issue's target is missed (non-2xx/errors always exit 1)
//   --skip-list         BENCH_LIST=0        skip the package-list bench that runs afterwards (bench/signings-list.ts:
//                                           10,000 packages, `/signings` server time; same --app-dir, --pg-url, --strict)
// Only 127.0.0.1 is ever contacted.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync, type WriteStream } from "node:fs";
import { createServer } from "node:net";
import { cpus, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon, { type Instance, type Result } from "autocannon";
import { chromium } from "playwright-core";
import postgres from "postgres";
import { firstLoadTable, measureSignerRoutes, signInAsSigner, signerPagePasses, TARGET_FIRST_LOAD_GZIP_KB, type RouteFirstLoad } from "./first-load-js";
import { measurePageScripts, pageScriptsPass, pageScriptsReport, TARGET_PAGE_SCRIPTS_GZIP_KB, type PageScripts } from "./page-scripts";
import { CORE_API_BUNDLE, startApiNodeFlags, startNextNodeFlags, WEB_SERVER } from "./start-api-command";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_RATIO = 0.1;
const TARGET_P99_MS = 15;
/** Issue 22: `/v1` mounted in Next serves at least this share of what Next serves on its own `/health`. */
const TARGET_NEXT_V1_RATIO = 0.9;
/** Issue 22: the Next server's peak RSS under the same load. */
const TARGET_NEXT_PEAK_RSS_MB = 400;

// ---------------------------------------------------------------------------------------------- options

const { values: flags } = parseArgs({
  options: {
    duration: { type: "string" },
    warmup: { type: "string" },
    connections: { type: "string" },
    rounds: { type: "string" },
    soak: { type: "boolean" },
    "soak-minutes": { type: "string" },
    "skip-next": { type: "boolean" },
    "api-from-source": { type: "boolean" },
    "app-dir": { type: "string" },
    "pg-url": { type: "string" },
    "port-base": { type: "string" },
    chromium: { type: "string" },
    strict: { type: "boolean" },
    "skip-list": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
if (flags.help) {
  const header = readFileSync(fileURLToPath(import.meta.url), "utf8").split("\nimport ")[0] ?? "";
  console.log(header.replace(/^\/\/ ?/gm, ""));
  process.exit(0);
}

function numberOption(name: string, flag: string | undefined, envName: string, fallback: number, min: number): number {
  const raw = flag ?? process.env[envName];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min} (got ${raw})`);
  return value;
}

const options = {
  duration: numberOption("--duration", flags.duration, "BENCH_DURATION", 10, 1),
  warmup: numberOption("--warmup", flags.warmup, "BENCH_WARMUP", 3, 0),
  connections: Math.round(numberOption("--connections", flags.connections, "BENCH_CONNECTIONS", 16, 1)),
  rounds: Math.round(numberOption("--rounds", flags.rounds, "BENCH_ROUNDS", 3, 1)),
  soak: Boolean(flags.soak) || ["1", "true"].includes((process.env.BENCH_SOAK ?? "").toLowerCase()),
  soakMinutes: numberOption("--soak-minutes", flags["soak-minutes"], "BENCH_SOAK_MINUTES", 10, 1),
  apiFromSource: Boolean(flags["api-from-source"]) || ["1", "true"].includes((process.env.BENCH_API_SOURCE ?? "").toLowerCase()),
  next: !(flags["skip-next"] || ["0", "false", "no"].includes((process.env.BENCH_NEXT ?? "").toLowerCase())),
  appDir: resolve(flags["app-dir"] ?? process.env.BENCH_APP_DIR ?? REPO),
  pgUrl: flags["pg-url"] ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  portBase: Math.round(numberOption("--port-base", flags["port-base"], "BENCH_PORT_BASE", 0, 0)),
  chromium: flags.chromium ?? process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  strict: Boolean(flags.strict) || ["1", "true"].includes((process.env.BENCH_STRICT ?? "").toLowerCase()),
  list: !(flags["skip-list"] || ["0", "false", "no"].includes((process.env.BENCH_LIST ?? "").toLowerCase())),
};

const runId = new Date().toISOString().replace(/[:.]/g, "-");
const resultsDir = join(REPO, "bench", "results");
const logDir = join(resultsDir, `logs-${runId}`);
mkdirSync(logDir, { recursive: true });

// ------------------------------------------------------------------------------------- cleanup registry

type Server = { name: string; child: ChildProcess; log: WriteStream; logFile: string };
const servers: Server[] = [];
let currentLoad: Instance | undefined;
let dbToDrop: { adminUrl: string; name: string } | undefined;
let cleaning: Promise<void> | undefined;

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal); // detached => its own process group (catches grandchildren too)
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

async function stopServer(server: Server): Promise<void> {
  const { child } = server;
  if (child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    killGroup(child, "SIGTERM");
    const timer = setTimeout(() => killGroup(child, "SIGKILL"), 5000);
    await Promise.race([exited, new Promise((done) => setTimeout(done, 8000))]);
    clearTimeout(timer);
  }
  killGroup(child, "SIGKILL"); // leftovers in the group, if any
  server.log.end();
}

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    currentLoad?.stop();
    await Promise.allSettled(servers.map(stopServer));
    if (dbToDrop) {
      const admin = postgres(dbToDrop.adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
      try {
        await admin.unsafe(`drop database if exists "${dbToDrop.name}" with (force)`);
        console.log(`dropped database ${dbToDrop.name}`);
      } catch (error) {
        console.error(`could not drop database ${dbToDrop.name}: ${String(error)}`);
      } finally {
        await admin.end({ timeout: 5 });
      }
    }
  })();
  return cleaning;
}

process.on("exit", () => {
  for (const server of servers) killGroup(server.child, "SIGKILL");
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping servers and dropping the database…`);
    void cleanup().finally(() => process.exit(130));
  });
}

// ------------------------------------------------------------------------------------------- processes

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

/** Runs a command to completion (bounded by `timeoutMs`), returning stdout; throws with stderr on failure. */
function runCommand(label: string, args: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", fail);
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) done(stdout);
      else fail(new Error(`${label} failed (${signal ?? `exit ${code}`}):\n${tail(stderr || stdout)}`));
    });
  });
}

function tail(text: string, lines = 30): string {
  return text.trimEnd().split("\n").slice(-lines).join("\n");
}

/** Starts a long-running node process directly (no npm/tsx wrapper), so `child.pid` is the real server. */
function startServer(name: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Server {
  const logFile = join(logDir, `${name}.log`);
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  child.stdout?.pipe(log, { end: false });
  child.stderr?.pipe(log, { end: false });
  const server = { name, child, log, logFile };
  servers.push(server);
  return server;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => done(port));
    });
  });
}

async function waitFor(server: Server, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer";
  while (Date.now() < deadline) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) {
      throw new Error(`${server.name} exited early; log ${server.logFile}:\n${tail(readFileSync(server.logFile, "utf8"))}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      if (response.ok) return;
      last = `HTTP ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`${server.name} not ready at ${url} after ${timeoutMs / 1000}s (${last}); log ${server.logFile}`);
}

// ----------------------------------------------------------------------------------------- RSS sampling

/** The pid and all its descendants (Next may fork workers; the sum is the server's footprint). */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const list = children.get(ppid) ?? [];
      list.push(Number(entry));
      children.set(ppid, list);
    } catch {
      // process vanished while scanning
    }
  }
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i] as number) ?? []));
  return tree;
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

function sampleRss(rootPid: number): () => { peakKb: number; pids: number[] } {
  const pids = processTree(rootPid);
  let peakKb = 0;
  const sample = () => {
    peakKb = Math.max(peakKb, pids.reduce((sum, pid) => sum + statusKb(pid, "VmRSS"), 0));
  };
  sample();
  const timer = setInterval(sample, 200);
  return () => {
    clearInterval(timer);
    sample();
    return { peakKb, pids };
  };
}

// ------------------------------------------------------------------------------------------------- load

type Target = { name: string; server: Server; url: string; headers?: Record<string, string> };

type Measurement = {
  target: string;
  url: string;
  reqPerSec: number;
  totalRequests: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  latencyAvgMs: number;
  peakRssMb: number;
  serverPids: number[];
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  ratioToBaseline?: number;
};

function load(target: Target, duration: number): Promise<Result> {
  const instance = autocannon({
    url: target.url,
    connections: options.connections,
    duration,
    timeout: 10,
    headers: target.headers,
  });
  currentLoad = instance;
  return Promise.resolve(instance).finally(() => {
    currentLoad = undefined;
  });
}

async function preflight(target: Target): Promise<void> {
  const response = await fetch(target.url, { headers: target.headers, signal: AbortSignal.timeout(10_000) });
  const body = await response.text();
  if (!response.ok) throw new Error(`${target.name}: preflight got HTTP ${response.status} from ${target.url}: ${body.slice(0, 300)}`);
}

async function measure(target: Target): Promise<Measurement> {
  await preflight(target);
  if (options.warmup > 0) await load(target, options.warmup);
  const stopSampling = sampleRss(target.server.child.pid as number);
  const result = await load(target, options.duration);
  const { peakKb, pids } = stopSampling();
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    target: target.name,
    url: target.url,
    reqPerSec: result.requests.average,
    totalRequests: result.requests.total,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    latencyAvgMs: result.latency.average,
    peakRssMb: peakKb / 1024,
    serverPids: pids,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

// ------------------------------------------------------------------------------------------------ report

/** autocannon's latency histogram has 1 ms resolution; 0 means under a millisecond. */
function ms(value: number): string {
  return value < 1 ? "<1" : value.toFixed(0);
}

function table(rows: Measurement[]): string {
  const header = ["target", "req/s", "p50 ms", "p99 ms", "peak RSS MB", "errors", "non-2xx", "vs baseline"];
  const body = rows.map((r) => [
    r.target,
    r.reqPerSec.toFixed(0),
    ms(r.latencyP50Ms),
    ms(r.latencyP99Ms),
    r.peakRssMb.toFixed(0),
    String(r.errors + r.timeouts),
    String(r.non2xx),
    r.ratioToBaseline === undefined ? "" : `${(r.ratioToBaseline * 100).toFixed(1)}%`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] as number) : c.padStart(widths[i] as number))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i === 0 ? `:${"-".repeat(w + 1)}` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}

/** The highest peak RSS each server process reached over all of its targets. */
function peakRssPerServer(targets: Target[], rows: Measurement[]): { server: string; peakRssMb: number }[] {
  const peaks = new Map<string, number>();
  targets.forEach((target, i) => {
    const row = rows[i];
    if (row) peaks.set(target.server.name, Math.max(peaks.get(target.server.name) ?? 0, row.peakRssMb));
  });
  return [...peaks].map(([server, peakRssMb]) => ({ server, peakRssMb }));
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** One row for a target over its rounds: medians of throughput and latency, the highest peak RSS, all errors. */
function summarize(rounds: Measurement[]): Measurement {
  const first = rounds[0] as Measurement;
  const sum = (pick: (m: Measurement) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  const statusCodes: Record<string, number> = {};
  for (const m of rounds) for (const [code, count] of Object.entries(m.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  return {
    target: first.target,
    url: first.url,
    reqPerSec: median(rounds.map((m) => m.reqPerSec)),
    totalRequests: sum((m) => m.totalRequests),
    latencyP50Ms: median(rounds.map((m) => m.latencyP50Ms)),
    latencyP99Ms: median(rounds.map((m) => m.latencyP99Ms)),
    latencyAvgMs: median(rounds.map((m) => m.latencyAvgMs)),
    peakRssMb: Math.max(...rounds.map((m) => m.peakRssMb)),
    serverPids: first.serverPids,
    errors: sum((m) => m.errors),
    timeouts: sum((m) => m.timeouts),
    non2xx: sum((m) => m.non2xx),
    statusCodes,
  };
}

// ------------------------------------------------------------------------------------------------- soak

type SoakResult = {
  minutes: number;
  reqPerSec: number;
  errors: number;
  non2xx: number;
  /** The highest RSS of each minute, MB. */
  peakRssPerMinuteMb: number[];
  /** The last minute's peak minus the second minute's (the first is warm-up), MB and share. */
  growthMb: number;
  growthShare: number;
  pass: boolean;
  measurement: Measurement;
};

/** Growth allowed between the second and the last minute of the soak before it counts as a leak. */
const SOAK_MAX_GROWTH_SHARE = 0.1;

async function runSoak(target: Target, minutes: number): Promise<SoakResult> {
  const pids = processTree(target.server.child.pid as number);
  const started = Date.now();
  const perMinute: number[] = [];
  const timer = setInterval(() => {
    const minute = Math.floor((Date.now() - started) / 60_000);
    const rssMb = pids.reduce((sum, pid) => sum + statusKb(pid, "VmRSS"), 0) / 1024;
    perMinute[minute] = Math.max(perMinute[minute] ?? 0, rssMb);
    if (rssMb > 0 && (Date.now() - started) % 60_000 < 1000) console.log(`  soak minute ${minute}: RSS ${rssMb.toFixed(0)} MB`);
  }, 1000);
  let result: Result;
  try {
    result = await load(target, Math.round(minutes * 60));
  } finally {
    clearInterval(timer);
  }
  const peaks = perMinute.filter((v) => v !== undefined).slice(0, Math.ceil(minutes));
  const reference = peaks[Math.min(1, peaks.length - 1)] ?? 0;
  const last = peaks[peaks.length - 1] ?? 0;
  const growthMb = last - reference;
  const growthShare = reference > 0 ? growthMb / reference : 0;
  const statusCodes = Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count]));
  return {
    minutes,
    reqPerSec: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    peakRssPerMinuteMb: peaks.map((v) => Math.round(v)),
    growthMb,
    growthShare,
    pass: growthShare <= SOAK_MAX_GROWTH_SHARE && result.errors + result.timeouts + result.non2xx === 0,
    measurement: {
      target: target.name,
      url: target.url,
      reqPerSec: result.requests.average,
      totalRequests: result.requests.total,
      latencyP50Ms: result.latency.p50,
      latencyP99Ms: result.latency.p99,
      latencyAvgMs: result.latency.average,
      peakRssMb: Math.max(...peaks),
      serverPids: pids,
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCodes,
    },
  };
}

function soakReport(soak: SoakResult): string {
  return (
    `soak (${soak.minutes} min of next /v1/signing/session, ${soak.reqPerSec.toFixed(0)} req/s, errors ${soak.errors}, non-2xx ${soak.non2xx}):\n` +
    `  peak RSS per minute (MB): ${soak.peakRssPerMinuteMb.join(", ")}\n` +
    `target (no growth: last minute within ${SOAK_MAX_GROWTH_SHARE * 100}% of the second): ${soak.pass ? "PASS" : "FAIL"} — ` +
    `${soak.growthMb >= 0 ? "+" : ""}${soak.growthMb.toFixed(0)} MB (${(soak.growthShare * 100).toFixed(1)}%)`
  );
}

// -------------------------------------------------------------------------------------------------- main

async function main(): Promise<number> {
  const adminUrl = options.pgUrl;
  const host = new URL(adminUrl).hostname;
  if (host !== "127.0.0.1" && host !== "localhost") throw new Error(`--pg-url must point at 127.0.0.1 (got ${host})`);
  const dbName = `csig_bench_${randomBytes(4).toString("hex")}`;
  const dbUrlObject = new URL(adminUrl);
  dbUrlObject.pathname = `/${dbName}`;
  const databaseUrl = dbUrlObject.toString();
  const authSecret = process.env.BENCH_AUTH_SECRET ?? randomBytes(32).toString("base64url");
  const targetCount = options.next ? 5 : 3;

  const loadAtStart = loadavg();
  console.log(
    `bench ${runId}: ${cpus().length} CPUs (load average ${loadAtStart.map((l) => l.toFixed(2)).join(" ")}), ` +
      `Node ${process.version}, ${options.connections} connections, ` +
      `${options.warmup}s warm-up + ${options.duration}s per target, next: ${options.next ? options.appDir : "skipped"}`,
  );

  // 1. database, seed, token
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  try {
    await admin.unsafe(`create database "${dbName}"`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  dbToDrop = { adminUrl, name: dbName };
  console.log(`created database ${dbName}`);

  const baseEnv = childEnv({ DATABASE_URL: databaseUrl, AUTH_SECRET: authSecret, LOG_LEVEL: "warn" });
  await runCommand("db:seed", ["--import", "tsx", "scripts/db-seed.ts"], REPO, baseEnv, 120_000);
  console.log("migrated and seeded");
  const ttl = Math.min(86_400, Math.max(3600, Math.ceil(targetCount * options.rounds * (options.warmup + options.duration) + (options.soak ? options.soakMinutes * 60 : 0) + 1800)));
  const token = (
    await runCommand("token", ["--import", "tsx", "scripts/token.ts", "manager@demo.local", "--ttl", String(ttl)], REPO, baseEnv, 60_000)
  ).trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) throw new Error(`token script printed something that is not a JWT: ${token.slice(0, 80)}`);
  const auth = { authorization: `Bearer ${token}` };

  // 2. servers
  if (options.next && !existsSync(join(options.appDir, ".next", "BUILD_ID"))) {
    console.log(`no production build in ${options.appDir}; running next build (up to 15 min)…`);
    await runCommand("next build", ["node_modules/next/dist/bin/next", "build"], options.appDir, { ...baseEnv, NODE_ENV: "production" }, 15 * 60_000);
  }

  const [basePort, apiPort, nextPort] = options.portBase
    ? [options.portBase, options.portBase + 1, options.portBase + 2]
    : await Promise.all([freePort(), freePort(), freePort()]);
  const baseline = startServer("baseline", ["bench/baseline-server.mjs", String(basePort)], REPO, baseEnv);
  if (!options.apiFromSource) await runCommand("build:api", ["scripts/build-api.mjs"], REPO, baseEnv, 120_000);
  // The bundle runs with start:api's node flags (package.json), so the bench measures what production runs.
  const apiArgs = options.apiFromSource ? ["--import", "tsx", "scripts/start-api.ts"] : [...startApiNodeFlags(REPO), CORE_API_BUNDLE];
  const api = startServer("core-api", apiArgs, REPO, {
    ...baseEnv,
    NODE_ENV: "production",
    API_PORT: String(apiPort),
  });
  // `next start` runs with the node flags of package.json's start script, as `npm start` does.
  const nextFlags = startNextNodeFlags(REPO);
  const next = options.next
    ? startServer("next", [...nextFlags, WEB_SERVER, "--hostname", "127.0.0.1", "--port", String(nextPort)], options.appDir, {
        ...baseEnv,
        NODE_ENV: "production",
        // The sign-in form posts to this origin; proxy.ts refuses a POST from any other.
        APP_URL: `http://127.0.0.1:${nextPort}`,
      })
    : undefined;

  await waitFor(baseline, `http://127.0.0.1:${basePort}/`, 30_000);
  await waitFor(api, `http://127.0.0.1:${apiPort}/ready`, 60_000);
  if (next) await waitFor(next, `http://127.0.0.1:${nextPort}/ready`, 120_000);
  console.log(
    `servers up: baseline pid ${baseline.child.pid}, core-api pid ${api.child.pid} (${apiArgs.join(" ")})` +
      (next ? `, next pid ${next.child.pid} (${[...nextFlags, WEB_SERVER].join(" ")})` : ""),
  );

  // 3. load
  const targets: Target[] = [
    { name: "baseline node:http", server: baseline, url: `http://127.0.0.1:${basePort}/` },
    { name: "core-api /health", server: api, url: `http://127.0.0.1:${apiPort}/health` },
    { name: "core-api /v1/signing/session", server: api, url: `http://127.0.0.1:${apiPort}/v1/signing/session`, headers: auth },
  ];
  if (next) {
    targets.push(
      { name: "next /health", server: next, url: `http://127.0.0.1:${nextPort}/health` },
      { name: "next /v1/signing/session", server: next, url: `http://127.0.0.1:${nextPort}/v1/signing/session`, headers: auth },
    );
  }

  // Every target once per round, the rounds one after another: a slow minute on the shared machine then
  // hits every target alike, and the medians over the rounds are what the table shows.
  const runs: Measurement[][] = targets.map(() => []);
  for (let round = 1; round <= options.rounds; round++) {
    for (const [i, target] of targets.entries()) {
      process.stdout.write(`round ${round}/${options.rounds}: measuring ${target.name} … `);
      const row = await measure(target);
      runs[i]!.push(row);
      console.log(`${row.reqPerSec.toFixed(0)} req/s, p99 ${row.latencyP99Ms} ms, peak RSS ${row.peakRssMb.toFixed(0)} MB, non-2xx ${row.non2xx}, errors ${row.errors + row.timeouts}`);
    }
  }
  const rows = runs.map(summarize);
  const baseRate = rows[0]?.reqPerSec ?? 0;
  for (const row of rows) row.ratioToBaseline = baseRate > 0 ? row.reqPerSec / baseRate : undefined;

  // `next /v1/signing/session` against `next /health`, both through the same Next server, per round.
  const nextHealthIndex = targets.findIndex((t) => t.name === "next /health");
  const nextV1Index = targets.findIndex((t) => t.name === "next /v1/signing/session");
  const nextV1Ratios =
    nextHealthIndex >= 0 && nextV1Index >= 0
      ? runs[nextV1Index]!.map((row, round) => row.reqPerSec / (runs[nextHealthIndex]![round]?.reqPerSec || Number.NaN))
      : [];
  const nextV1Ratio = nextV1Ratios.length > 0 ? median(nextV1Ratios) : undefined;

  let firstLoad: RouteFirstLoad[] | undefined;
  let pageScripts: PageScripts | undefined;
  let browserError: string | undefined;
  if (next) {
    process.stdout.write("measuring the signer routes' JavaScript (HTML first-load list, then every script in Chromium) … ");
    const base = `http://127.0.0.1:${nextPort}`;
    // A browser that fails (none installed, a crash) loses the scripts' figures, not the load figures above.
    try {
      const browser = await chromium.launch({ executablePath: options.chromium, args: ["--no-sandbox", "--disable-gpu"] });
      try {
        const cookies = await signInAsSigner(browser, base);
        firstLoad = await measureSignerRoutes({ base, databaseUrl, cookieHeader: cookies.map((c) => `${c.name}=${c.value}`).join("; ") });
        const packagePath = firstLoad.find((r) => r.route === "/signings/[id]")?.path;
        if (!packagePath) throw new Error("no /signings/[id] route measured");
        await measurePageScripts(browser, base, cookies, packagePath); // warm-up: the server's first render of the page
        pageScripts = await measurePageScripts(browser, base, cookies, packagePath);
      } finally {
        await browser.close();
      }
      console.log("done");
    } catch (error) {
      browserError = error instanceof Error ? error.message : String(error);
      console.log(`FAILED: ${browserError}`);
    }
  }

  let soak: SoakResult | undefined;
  if (next && options.soak) {
    const target = targets[nextV1Index]!;
    console.log(`soak: ${target.name} for ${options.soakMinutes} min at ${options.connections} connections, RSS every second …`);
    soak = await runSoak(target, options.soakMinutes);
  }

  // 4. report
  const session = rows.find((r) => r.target === "core-api /v1/signing/session");
  const ratioOk = session?.ratioToBaseline !== undefined && session.ratioToBaseline >= TARGET_RATIO;
  const p99Ok = session !== undefined && session.latencyP99Ms < TARGET_P99_MS;
  const firstLoadOk = firstLoad === undefined || signerPagePasses(firstLoad);
  const verdict = ratioOk && p99Ok ? "PASS" : "FAIL";
  const bad = runs.flat().filter((r) => r.non2xx > 0 || r.errors > 0 || r.timeouts > 0);
  if (soak && (soak.errors > 0 || soak.non2xx > 0)) bad.push({ ...soak.measurement, target: "soak" });

  const loadAtEnd = loadavg();
  const load1 = loadAtEnd[0] ?? 0;
  const serverPeaks = peakRssPerServer(targets, rows);
  const nextPeak = serverPeaks.find((p) => p.server === "next")?.peakRssMb;
  const nextV1Ok = nextV1Ratio === undefined || nextV1Ratio >= TARGET_NEXT_V1_RATIO;
  const nextRssOk = nextPeak === undefined || nextPeak <= TARGET_NEXT_PEAK_RSS_MB;
  const pageScriptsOk = pageScripts === undefined || pageScriptsPass(pageScripts);
  const soakOk = soak === undefined || soak.pass;
  console.log(`\nmedians of ${options.rounds} interleaved round(s), ${options.duration}s each (peak RSS: the highest of the rounds):\n`);
  console.log(`${table(rows)}\n`);
  console.log(`peak RSS per server: ${serverPeaks.map((p) => `${p.server} ${p.peakRssMb.toFixed(0)} MB`).join(", ")}\n`);
  if (load1 > cpus().length * 1.5) {
    console.warn(`note: 1-minute load average ${load1.toFixed(2)} on ${cpus().length} CPUs — other work competed with this run`);
  }
  console.log(
    `target (core-api /v1/signing/session >= ${TARGET_RATIO * 100}% of baseline req/s, p99 < ${TARGET_P99_MS} ms at ` +
      `${options.connections} connections): ${verdict} — ${((session?.ratioToBaseline ?? 0) * 100).toFixed(1)}% ` +
      `(${ratioOk ? "ok" : "too low"}), p99 ${session?.latencyP99Ms ?? "?"} ms (${p99Ok ? "ok" : "too high"})`,
  );
  if (nextV1Ratio !== undefined) {
    console.log(
      `target (next /v1/signing/session >= ${TARGET_NEXT_V1_RATIO}× next /health, median of the rounds): ${nextV1Ok ? "PASS" : "FAIL"} — ` +
        `${nextV1Ratio.toFixed(2)}× (rounds: ${nextV1Ratios.map((r) => `${r.toFixed(2)}×`).join(", ")})`,
    );
  }
  if (nextPeak !== undefined) {
    console.log(`target (next start peak RSS <= ${TARGET_NEXT_PEAK_RSS_MB} MB under this load): ${nextRssOk ? "PASS" : "FAIL"} — ${nextPeak.toFixed(0)} MB`);
  }
  if (firstLoad) {
    console.log(`\nfirst-load JS per signer route (gzip -9 of every <script src>/script preload in the HTML, signed in as the signer):\n`);
    console.log(firstLoadTable(firstLoad));
    console.log(`\ntarget (/signings/[id] first-load JS ≤ ${TARGET_FIRST_LOAD_GZIP_KB} kB gzipped): ${firstLoadOk ? "PASS" : "FAIL"}`);
  }
  if (pageScripts) console.log(`\n${pageScriptsReport(pageScripts)}`);
  if (soak) console.log(`\n${soakReport(soak)}`);

  const file = join(resultsDir, `bench-${runId}.json`);
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        runId,
        date: new Date().toISOString(),
        machine: {
          cpus: cpus().length,
          cpuModel: cpus()[0]?.model,
          node: process.version,
          platform: process.platform,
          loadAverageAtStart: loadAtStart,
          loadAverageAtEnd: loadAtEnd,
        },
        options: { ...options, pgUrl: undefined },
        target: { ratio: TARGET_RATIO, p99Ms: TARGET_P99_MS, verdict, ratioOk, p99Ok },
        nextTargets: {
          v1ToHealth: { target: TARGET_NEXT_V1_RATIO, median: nextV1Ratio, rounds: nextV1Ratios, pass: nextV1Ok },
          peakRss: { targetMb: TARGET_NEXT_PEAK_RSS_MB, peakMb: nextPeak, pass: nextRssOk },
        },
        results: rows,
        rounds: runs,
        firstLoad: firstLoad && { targetKb: TARGET_FIRST_LOAD_GZIP_KB, pass: firstLoadOk, routes: firstLoad },
        pageScripts: pageScripts && { targetKb: TARGET_PAGE_SCRIPTS_GZIP_KB, pass: pageScriptsOk, ...pageScripts },
        soak,
        browserError,
        peakRssPerServer: serverPeaks,
        logs: logDir,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`results: ${file}`);

  if (browserError) {
    console.error(`\nFAILED: the signer routes' JavaScript was not measured (${options.chromium}): ${browserError}`);
    return 1;
  }
  if (bad.length > 0) {
    console.error(
      `\nFAILED: errors or non-2xx responses — these figures do not measure the real endpoint:\n` +
        bad.map((r) => `  ${r.target}: non-2xx ${r.non2xx}, errors ${r.errors}, timeouts ${r.timeouts}, status ${JSON.stringify(r.statusCodes)}`).join("\n"),
    );
    return 1;
  }
  const allPass = verdict === "PASS" && firstLoadOk && nextV1Ok && nextRssOk && pageScriptsOk && soakOk;
  return allPass || !options.strict ? 0 : 2;
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbench failed: ${error instanceof Error ? error.message : String(error)}`);
  exitCode = 1;
} finally {
  await cleanup();
}
if (options.next && options.list && exitCode !== 1) {
  // The package list's own bench (its own database and server): it needs `next start` too.
  const listArgs = ["--import", "tsx", join(REPO, "bench", "signings-list.ts"), "--app-dir", options.appDir, "--pg-url", options.pgUrl];
  if (options.strict) listArgs.push("--strict");
  const listExit = await new Promise<number>((done) => {
    const child = spawn(process.execPath, listArgs, { cwd: REPO, env: childEnv({}), stdio: "inherit" });
    child.on("exit", (code) => done(code ?? 1));
  });
  exitCode = Math.max(exitCode, listExit);
}
process.exit(exitCode);
