// npm run bench:cold-start – process spawn → first authenticated `/v1` answer, as a serverless host
// starts a function cold (issue 31: target ≤ 1.5 s).
//
// 1. creates a fresh PostgreSQL database (csig_bench_cold_<random>), migrates and seeds it (the deploy
//    step: a serverless start never migrates), mints a bearer token for manager@demo.local;
// 2. for --runs rounds, interleaved, spawns each target cold and polls `GET /v1/signing/session` with the
//    token every 10 ms until it answers 200, then stops it:
//    - `baseline`: a bare node:http server (bench/baseline-server.mjs): what starting Node costs;
//    - `npm start`: server.mjs from this repository with package.json's start flags and SERVERLESS=1;
//    - `standalone`: `node server.js` in `.next/standalone` (the traced copy a function runs), SERVERLESS=1;
//    the baseline answers any path; it is the floor, not a /v1;
// 3. prints each run, the medians and the verdict; writes bench/results/cold-start-<time>.json; drops the
//    database (also on error and SIGINT/SIGTERM).
//
// Needs a production build (`next build`, standalone output). Options (flag, or environment variable):
//   --runs <n>        BENCH_COLD_RUNS   rounds (default 5)
//   --pg-url <url>    BENCH_PG_URL      admin connection (default postgres://postgres@127.0.0.1:5432/postgres)
//   --port <n>        BENCH_PORT        the port every target listens on in turn (default: a free one)
//   --strict          BENCH_STRICT=1    exit 2 when a target's median misses 1.5 s
//   --cpu-prof <dir>                    one extra `npm start` run under `node --cpu-prof`, profile written to <dir>
// Only 127.0.0.1 is ever contacted.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { availableParallelism, loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import postgres from "postgres";
import { startNextNodeFlags, WEB_SERVER } from "./start-api-command";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const TARGET_MS = 1500;
const { values: flags } = parseArgs({
  options: { runs: { type: "string" }, "pg-url": { type: "string" }, port: { type: "string" }, strict: { type: "boolean" }, "cpu-prof": { type: "string" } },
});
const runs = Number(flags.runs ?? process.env.BENCH_COLD_RUNS ?? 5);
const adminUrl = flags["pg-url"] ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const strict = flags.strict ?? process.env.BENCH_STRICT === "1";

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

type Target = { name: string; cwd: string; args: (port: number) => string[] };

const standaloneDir = join(REPO, ".next", "standalone");
const targets: Target[] = [
  { name: "baseline (node:http)", cwd: REPO, args: (port) => [join(REPO, "bench", "baseline-server.mjs"), String(port)] },
  { name: "npm start (server.mjs)", cwd: REPO, args: (port) => [...startNextNodeFlags(REPO), WEB_SERVER, "--port", String(port), "--hostname", "127.0.0.1"] },
  { name: "standalone (server.js)", cwd: standaloneDir, args: () => ["server.js"] },
];

function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("exit", () => {
      clearTimeout(timer);
      done();
    });
    child.kill("SIGTERM");
  });
}

/** Spawns the target and returns the ms from spawn to the first 200 of `GET /v1/signing/session`. */
async function coldStart(target: Target, env: NodeJS.ProcessEnv, token: string, extraNodeFlags: string[] = []): Promise<number> {
  const port = Number(flags.port ?? process.env.BENCH_PORT ?? (await freePort()));
  const started = performance.now();
  const child = spawn(process.execPath, [...extraNodeFlags, ...target.args(port)], {
    cwd: target.cwd,
    env: { ...env, PORT: String(port), HOSTNAME: "127.0.0.1", APP_URL: `http://127.0.0.1:${port}` },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  try {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      if (child.exitCode !== null) throw new Error(`${target.name} exited ${child.exitCode}: ${stderr}`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/v1/signing/session`, { headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        if (response.status === 200) return performance.now() - started;
        throw new Error(`${target.name}: /v1/signing/session answered ${response.status}`);
      } catch (error) {
        if (!(error instanceof TypeError)) throw error; // not listening yet
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    throw new Error(`${target.name} did not answer within 60 s: ${stderr}`);
  } finally {
    await stop(child);
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

async function main(): Promise<void> {
  if (!existsSync(join(standaloneDir, "server.js"))) throw new Error("no standalone build: run `next build` first (next.config.ts sets output: standalone)");
  const name = `csig_bench_cold_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const cleanup = async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void cleanup().finally(() => process.exit(1)));
  try {
    const authSecret = randomBytes(32).toString("base64url");
    // As bench/run.ts: the repository's own scripts migrate and seed (db:seed) and mint the token.
    const scriptEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, NODE_ENV: "development", AUTH_SECRET: authSecret, DATABASE_URL: url.toString(), LOG_LEVEL: "warn" };
    const script = (args: string[]) => {
      const result = spawnSync(process.execPath, ["--import", "tsx", ...args], { cwd: REPO, env: scriptEnv, encoding: "utf8", timeout: 120_000 });
      if (result.status !== 0) throw new Error(`${args.join(" ")} failed: ${result.stderr}`);
      return result.stdout.trim();
    };
    script(["scripts/db-seed.ts"]);
    const token = script(["scripts/token.ts", "manager@demo.local", "--ttl", "3600"]);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      NEXT_MANUAL_SIG_HANDLE: "true",
      REALTIME_URL: "memory:",
      LOG_LEVEL: "warn",
      AUTH_SECRET: authSecret,
      DATABASE_URL: url.toString(),
      SERVERLESS: "1",
    };

    const results = new Map<string, number[]>(targets.map((t) => [t.name, []]));
    for (let round = 1; round <= runs; round++) {
      for (const target of targets) {
        const ms = await coldStart(target, env, token);
        results.get(target.name)!.push(ms);
        console.log(`round ${round} ${target.name.padEnd(24)} ${ms.toFixed(0)} ms`);
      }
    }
    if (flags["cpu-prof"]) {
      const dir = resolve(flags["cpu-prof"]);
      mkdirSync(dir, { recursive: true });
      // The profile is written on a normal exit: SIGTERM becomes process.exit.
      const exitOnTerm = `data:text/javascript,${encodeURIComponent('process.on("SIGTERM", () => process.exit(0));')}`;
      const ms = await coldStart(targets[1]!, env, token, ["--cpu-prof", `--cpu-prof-dir=${dir}`, "--import", exitOnTerm]);
      console.log(`profiled npm start: ${ms.toFixed(0)} ms, profile in ${dir}`);
    }

    console.log(`\ncold start, spawn → first authenticated /v1 answer, ${runs} runs (${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)})`);
    console.log("| target | median | runs (ms) | target ≤ 1500 ms |");
    console.log("|---|---|---|---|");
    const summary: Record<string, { median: number; runs: number[] }> = {};
    let missed = false;
    for (const [target, values] of results) {
      const m = median(values);
      summary[target] = { median: m, runs: values.map(Math.round) };
      const isBaseline = target.startsWith("baseline");
      if (!isBaseline && m > TARGET_MS) missed = true;
      console.log(`| ${target} | ${m.toFixed(0)} ms | ${values.map((v) => v.toFixed(0)).join(", ")} | ${isBaseline ? "floor" : m <= TARGET_MS ? "PASS" : "FAIL"} |`);
    }
    const out = join(REPO, "bench", "results");
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, `cold-start-${new Date().toISOString().replace(/[:.]/g, "-")}.json`), JSON.stringify({ runs, targetMs: TARGET_MS, summary }, null, 2));
    if (missed && strict) process.exitCode = 2;
  } finally {
    await cleanup();
  }
}

await main();
