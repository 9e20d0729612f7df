import { randomBytes } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { Socket } from "node:net";
import { expect, test, type Browser, type BrowserContext, type Page } from "@playwright/test";
import { eq, inArray, sql } from "drizzle-orm";
import postgres from "postgres";
import { migrateDb, openDb, type DbHandle } from "@/db/client";
import { jobs, locations, outboxEmails } from "@/db/schema";
import { issueLocalAccessToken, localSubjectForEmail } from "@/lib/auth/local-tokens";
import { sendEmailJob } from "@/lib/job-runner/send-email-job";
import { setEnvForTests } from "@/lib/env";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { DEMO_PASSWORD, seedDemo } from "@/lib/seed/seed-demo";
import { freePort } from "../helpers/free-port";
import { readSse } from "../helpers/sse";
import { HomePage } from "./pages/home-page";
import { SignInPage } from "./pages/sign-in-page";
import { startCoreApiServer, type CoreApiServer } from "./support/core-api-server";
import { startNextServer, type NextServer } from "./support/next-server";

// The deployment of docs/deploy.md, "Several web instances": two `next start` of the production build
// and the standalone core-api (dist/core-api.mjs, as `npm run start:api` runs it) on one PostgreSQL
// database and one Redis, the web instances behind a small load balancer that the test steers with a
// request header. Sign-ins, comment streams and jobs must not care which process serves them.

const POSTGRES = process.env.E2E_POSTGRES_URL ?? process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const REDIS = process.env.E2E_REDIS_URL ?? "redis://127.0.0.1:6379";
const AUTH_SECRET = randomBytes(32).toString("base64url");

type Backend = "a" | "b";
let databaseName: string;
let databaseUrl: string;
let handle: DbHandle;
let balancer: Server;
let lbUrl: string;
let apiUrl: string;
let api: CoreApiServer | undefined;
const web: Partial<Record<Backend, NextServer>> = {};

async function redisAnswers(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((done) => {
    const socket = new Socket();
    socket.setTimeout(2_000, () => (socket.destroy(), done(false)));
    socket.once("error", () => done(false));
    socket.connect(Number(port || 6379), hostname, () => socket.write("PING\r\n"));
    socket.once("data", (data) => (socket.destroy(), done(data.toString().startsWith("+PONG"))));
  });
}

/** A load balancer as deploy.md describes: appends the client to X-Forwarded-For (TRUSTED_PROXY_HOPS=1). */
function startBalancer(ports: Record<Backend, number>): Promise<Server> {
  let next = 0;
  const server = createServer((req, res) => {
    const asked = req.headers["x-backend"];
    const backend: Backend = asked === "a" || asked === "b" ? asked : (["a", "b"] as const)[next++ % 2]!;
    const forwarded = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const upstream = httpRequest(
      { host: "127.0.0.1", port: ports[backend], method: req.method, path: req.url, headers: { ...req.headers, "x-forwarded-for": forwarded } },
      (up) => {
        res.writeHead(up.statusCode ?? 502, { ...up.headers, "x-served-by": backend });
        up.pipe(res);
      },
    );
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502);
      res.end();
    });
    req.pipe(upstream);
    res.on("close", () => upstream.destroy());
  });
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(server)));
}

async function bearer(email: string): Promise<Record<string, string>> {
  const { token } = await issueLocalAccessToken({ subject: localSubjectForEmail(email) });
  return { authorization: `Bearer ${token}`, "content-type": "application/json" };
}

/** The sign-in form, with room for scrypt on a loaded machine (three servers on two cores). */
async function signIn_(page: Page, email: string): Promise<void> {
  const form = await new SignInPage(page).goto();
  await form.fill(email, DEMO_PASSWORD);
  await Promise.all([page.waitForURL((url) => url.pathname === "/", { timeout: 90_000 }), form.submit.click()]);
}

async function contextOn(browser: Browser, backend: Backend): Promise<BrowserContext> {
  return browser.newContext({ baseURL: lbUrl, extraHTTPHeaders: { "x-backend": backend } });
}

test.describe("several web instances, one database, one Redis", { tag: "@desktop" }, () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    if (!(await redisAnswers(REDIS))) throw new Error(`Redis does not answer at ${REDIS} (set E2E_REDIS_URL)`);
    databaseName = `csig_multi_${randomBytes(6).toString("hex")}`;
    const admin = postgres(POSTGRES, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${databaseName}`);
    await admin.end();
    const url = new URL(POSTGRES);
    url.pathname = `/${databaseName}`;
    databaseUrl = url.toString();
    // This process mints tokens with the secret the servers share.
    setEnvForTests({ AUTH_SECRET, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" });
    handle = await openDb({ url: databaseUrl }, { max: 2 });
    await migrateDb(handle);
    await seedDemo(handle.db);

    const ports = { a: await freePort(), b: await freePort() };
    balancer = await startBalancer(ports);
    lbUrl = `http://127.0.0.1:${(balancer.address() as { port: number }).port}`;
    const shared = {
      NODE_ENV: "production",
      DATABASE_URL: databaseUrl,
      REALTIME_URL: REDIS,
      REALTIME_HEARTBEAT_MS: "1000",
      AUTH_SECRET,
      APP_URL: lbUrl,
      TRUSTED_PROXY_HOPS: "1",
      JOBS_POLL_INTERVAL_MS: "250",
      LOG_LEVEL: "warn",
    };
    for (const backend of ["a", "b"] as const) {
      process.env.E2E_EXTRA_PORT = String(ports[backend]);
      web[backend] = await startNextServer(() => shared);
    }
    delete process.env.E2E_EXTRA_PORT;
    api = await startCoreApiServer({ ...shared, TRUSTED_PROXY_HOPS: "0" });
    apiUrl = api.baseUrl;
  });

  test.afterEach(async ({}, testInfo) => {
    if (testInfo.status !== testInfo.expectedStatus) {
      for (const backend of ["a", "b"] as const) console.log(`--- web ${backend}:\n${web[backend]?.log().slice(-2000) ?? ""}`);
      console.log(`--- core-api:\n${api?.log().slice(-2000) ?? ""}`);
    }
  });

  test.afterAll(async () => {
    await Promise.all([api?.stop(), web.a?.stop(), web.b?.stop()]);
    await new Promise((r) => (balancer ? balancer.close(r) : r(undefined)));
    await handle?.close();
    if (databaseName) {
      const admin = postgres(POSTGRES, { max: 1, onnotice: () => {} });
      await admin.unsafe(`drop database if exists ${databaseName} with (force)`);
      await admin.end();
    }
  });

  test("a sign-in on one web instance is valid on the other; an access token on every process", async ({ browser }) => {
    const context = await contextOn(browser, "a");
    try {
      const page = await context.newPage();
      const signIn = page.waitForResponse((r) => r.request().method() === "POST" && new URL(r.url()).pathname === "/sign-in", { timeout: 90_000 });
      await signIn_(page, "manager@demo.local");
      expect((await signIn).headers()["x-served-by"]).toBe("a");

      await context.setExtraHTTPHeaders({ "x-backend": "b" });
      const response = await page.goto("/signings");
      expect(response?.headers()["x-served-by"]).toBe("b");
      expect(new URL(page.url()).pathname).toBe("/signings");
      await expect(new HomePage(page).currentUser).toContainText("Max Manager");

      // The same page without the cookie is refused by b: the session, not the route, let us in.
      const anonymous = await contextOn(browser, "b");
      const fresh = await anonymous.newPage();
      await fresh.goto("/signings");
      expect(new URL(fresh.url()).pathname).toBe("/sign-in");
      await anonymous.close();
    } finally {
      await context.close();
    }

    const headers = await bearer("manager@demo.local");
    for (const [name, base, extra] of [
      ["a", lbUrl, { "x-backend": "a" }],
      ["b", lbUrl, { "x-backend": "b" }],
      ["core-api", apiUrl, {}],
    ] as const) {
      const me = await fetch(`${base}/v1/workspace/memberships`, { headers: { ...headers, ...extra } });
      expect(me.status, `GET /v1/workspace/memberships on ${name}`).toBe(200);
    }
  });

  test("a comment posted on one process reaches streams on the others", async ({ browser }) => {
    const manager = await bearer("manager@demo.local");
    const [austin] = await handle.db.select({ id: locations.id }).from(locations).where(eq(locations.name, "Austin Branch"));
    const created = await fetch(`${apiUrl}/v1/documents`, {
      method: "POST",
      headers: manager,
      body: JSON.stringify({ type: "certificate_of_title", title: "Across instances", locationId: austin!.id }),
    });
    expect(created.status).toBe(201);
    const documentId = ((await created.json()) as { id: string }).id;

    // The browser's stream on web instance b, with the session cookie of a sign-in on a.
    const context = await contextOn(browser, "a");
    const page = await context.newPage();
    await signIn_(page, "owner@demo.local");
    const cookie = (await context.cookies(lbUrl)).map((c) => `${c.name}=${c.value}`).join("; ");
    await context.close();
    const onB = await fetch(`${lbUrl}/documents/${documentId}/comments/stream`, { headers: { cookie, "x-backend": "b", accept: "text/event-stream" } });
    expect(onB.status).toBe(200);
    expect(onB.headers.get("x-served-by")).toBe("b");
    // And the core-api's own stream.
    const onApi = await fetch(`${apiUrl}/v1/documents/${documentId}/comments/stream`, { headers: await bearer("owner@demo.local") });
    expect(onApi.status).toBe(200);
    const streamB = readSse(onB);
    const streamApi = readSse(onApi);
    try {
      await streamB.next((e) => e.event === "ready", 10_000);
      await streamApi.next((e) => e.event === "ready", 10_000);

      const posted = await fetch(`${lbUrl}/v1/documents/${documentId}/comments`, {
        method: "POST",
        headers: { ...manager, "x-backend": "a" },
        body: JSON.stringify({ body: "Posted on web instance a" }),
      });
      expect(posted.status).toBe(201);
      expect(posted.headers.get("x-served-by")).toBe("a");
      const comment = (await posted.json()) as { id: string; body: string };
      expect((await streamB.next((e) => e.event === "created", 10_000)).data).toEqual(comment);
      expect((await streamApi.next((e) => e.event === "created", 10_000)).data).toEqual(comment);

      const fromApi = await fetch(`${apiUrl}/v1/documents/${documentId}/comments`, {
        method: "POST",
        headers: manager,
        body: JSON.stringify({ body: "Posted on the core-api" }),
      });
      expect(fromApi.status).toBe(201);
      const second = (await fromApi.json()) as { id: string };
      expect(((await streamB.next((e) => e.event === "created" && (e.data as { id: string }).id === second.id, 10_000)).data as { body: string }).body).toBe(
        "Posted on the core-api",
      );
    } finally {
      await streamB.close();
      await streamApi.close();
    }
  });

  test("a job runs once although three processes poll for it", async () => {
    const run = randomBytes(4).toString("hex");
    const subjects = Array.from({ length: 30 }, (_, i) => `multi-instance ${run} #${i}`);
    const ids = await handle.db.transaction(async (tx) => {
      const rows = [];
      for (const subject of subjects) rows.push(await enqueueJob(tx, sendEmailJob, { to: "ops@example.com", subject, text: "once" }));
      return rows.map((r) => r.job.id);
    });
    await expect
      .poll(
        async () => {
          const rows = await handle.db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.id, ids));
          return rows.filter((r) => r.status === "succeeded").length;
        },
        { timeout: 30_000 },
      )
      .toBe(subjects.length);
    const attempts = await handle.db.select({ attempts: jobs.attempts, lockedBy: jobs.lockedBy }).from(jobs).where(inArray(jobs.id, ids));
    expect(attempts.every((r) => r.attempts === 1)).toBe(true);
    const sent = await handle.db
      .select({ subject: outboxEmails.subject, n: sql<number>`count(*)::int` })
      .from(outboxEmails)
      .where(inArray(outboxEmails.subject, subjects))
      .groupBy(outboxEmails.subject);
    expect(sent).toHaveLength(subjects.length);
    expect(sent.every((r) => r.n === 1)).toBe(true);
    test.info().annotations.push({ type: "workers", description: `${new Set(attempts.map((r) => r.lockedBy)).size} distinct worker(s) ran the 30 jobs` });
  });
});
