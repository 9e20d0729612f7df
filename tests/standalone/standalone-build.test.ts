// The standalone build runs from the traced files alone: `.next/standalone` + `.next/static` + `public`
// copied into a read-only folder, served as an unprivileged user with only `node` on PATH, on a fresh
// PostgreSQL database. A file the server reads at run time that output tracing missed (next.config.ts,
// RUNTIME_FILES) fails here: the migrations (first start), the PDF inspection worker's pdf-lib
// (creating a package), the signature fonts (sealing) and pdf.js with @napi-rs/canvas (a PDF scanback).
//
// Needs a production build (`next build`): `npm run test:standalone`. Under `npm test` (before CI's build)
// it skips when there is none.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDb, type DbHandle } from "@/db/client";
import { users } from "@/db/schema";
import { createApiKey } from "@/lib/api-keys/create-api-key";
import { createSessionCookie } from "@/lib/sign-in/create-session-cookie";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { dataDir } from "@/lib/env";
import { loadSealingIdentity } from "@/lib/seals/load-sealing-identity";
import { seedDemo } from "@/lib/seed/seed-demo";
import { freePort } from "../helpers/free-port";
import { assertDocumentedResponse } from "../helpers/openapi-contract";
import { copyStandalone, freshDatabase, standaloneBuilt, startStandalone, waitFor, type Copy, type Database, type Server } from "./helpers";

const built = standaloneBuilt();
const journal = JSON.parse(readFileSync("db/migrations/meta/_journal.json", "utf8")) as { entries: { tag: string }[] };
const MANAGER = "manager@demo.local";
const SIGNER = "signer@demo.local";

/**
 * A sealing certificate as production passes it (`SEALING_P12=base64:…`), so the server generates and
 * writes nothing: the development certificate this test process makes in its own temporary data
 * directory (tests/setup.ts points PGLITE_DIR there).
 */
function sealingCertificate(): { SEALING_P12: string; SEALING_P12_PASSWORD: string } {
  loadSealingIdentity();
  return {
    SEALING_P12: `base64:${readFileSync(join(dataDir(), "sealing-dev.p12")).toString("base64")}`,
    SEALING_P12_PASSWORD: readFileSync(join(dataDir(), "sealing-dev.p12.password"), "utf8").trim(),
  };
}

describe.skipIf(!built)("the standalone build from a read-only copy of the traced files", () => {
  let copy: Copy;
  let database: Database | undefined;
  let server: Server | undefined;
  let handle: DbHandle | undefined;
  let env: Record<string, string>;
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    copy = copyStandalone();
    database = await freshDatabase("csig_standalone");
    env = { AUTH_SECRET: process.env.AUTH_SECRET!, ...sealingCertificate() };
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await handle?.close();
    await database?.drop();
    copy?.remove();
  });

  /** A /v1 (or /health, /ready) call over HTTP, its answer checked against the OpenAPI document. */
  async function call(path: string, init: { as?: string; method?: string; json?: unknown; body?: BodyInit; headers?: Record<string, string> } = {}) {
    const headers = new Headers(init.headers);
    if (init.as) headers.set("authorization", `Bearer ${tokens.get(init.as)}`);
    let body = init.body;
    if (init.json !== undefined) {
      body = JSON.stringify(init.json);
      headers.set("content-type", "application/json");
    }
    const url = `${server!.base}${path}`;
    const method = init.method ?? (body ? "POST" : "GET");
    const response = await fetch(url, { method, headers, body });
    await assertDocumentedResponse(method, url, response.clone());
    return response;
  }

  it("migrates from the copy's traced migrations when it is not serverless", async (ctx) => {
    if (!database) ctx.skip();
    const port = await freePort();
    server = startStandalone(copy, port, { ...env, DATABASE_URL: database!.url });
    await waitFor(server, "/ready", 200);
    await server.stop();
    server = undefined;
    const sql = postgres(database!.url, { max: 1, onnotice: () => {} });
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from drizzle.__drizzle_migrations`;
    await sql.end();
    expect(row!.n).toBe(journal.entries.length);
  }, 120_000);

  it("serves /health, /ready, /v1, a signer's page, sealing with a typed signature and a PDF scanback, with SERVERLESS set", async (ctx) => {
    if (!database) ctx.skip();
    handle = await openDb({ url: database!.url }, { max: 2 });
    await seedDemo(handle.db);
    const keys = new Map<string, string>();
    for (const email of [MANAGER, SIGNER]) {
      const [user] = await handle.db.select().from(users).where(eq(users.email, email));
      keys.set(email, (await createApiKey(handle.db, { userId: user!.id, name: "standalone test" })).key);
    }

    const port = await freePort();
    server = startStandalone(copy, port, { ...env, DATABASE_URL: database!.url, SERVERLESS: "1" });
    await waitFor(server, "/health", 200);
    // As root, the server runs as nobody: the read-only copy is really read-only to it.
    if (copy.uid !== undefined) expect(readFileSync(`/proc/${server.child.pid}/status`, "utf8")).toMatch(new RegExp(`^Uid:\\s+${copy.uid}\\s`, "m"));
    expect(await (await call("/health")).json()).toMatchObject({ ok: true });
    const ready = await call("/ready");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ ready: true });

    // An API key, exchanged for a bearer token the way a script does.
    for (const [email, apiKey] of keys) {
      const exchanged = await fetch(`${server.base}/api/auth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ apiKey }) });
      expect(exchanged.status, email).toBe(200);
      tokens.set(email, ((await exchanged.json()) as { token: string }).token);
    }
    const session = await call("/v1/signing/session", { as: MANAGER });
    expect(session.status).toBe(200);
    const [austin] = await handle.db.query.locations.findMany({ where: (l, { eq: is }) => is(l.name, "Austin Branch") });

    // A package with a PDF (inspected by the pdf-lib worker), sent.
    const pdf = async (title: string, pages = 1) => Buffer.from(await renderAgreementPdf({ title, parties: ["Borrower"], pages })).toString("base64");
    const created = await call("/v1/signing/manager/signings", {
      as: MANAGER,
      json: {
        locationId: austin!.id,
        title: "Standalone e-sign",
        signerAuthMethod: "account",
        signers: [{ name: "Sam Signer", email: SIGNER }],
        documents: [{ name: "Agreement.pdf", contentBase64: await pdf("Standalone agreement") }],
      },
    });
    expect(created.status).toBe(201);
    const packageId = ((await created.json()) as { id: string }).id;
    expect((await call(`/v1/signing/manager/signings/${packageId}/send`, { as: MANAGER, method: "POST" })).status).toBe(200);

    // The signer's page, server-rendered from the copy.
    const [signer] = await handle.db.select().from(users).where(eq(users.email, SIGNER));
    const cookie = await createSessionCookie({ user: signer! });
    const page = await fetch(`${server.base}/signings/${packageId}`, { headers: { cookie: `${cookie.name}=${cookie.value}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("Standalone e-sign");

    // A typed signature in Caveat; completing the package seals it, stamping that font.
    const signerView = (await (await call(`/v1/signing/signer/signings/${packageId}`, { as: SIGNER })).json()) as { documents: { id: string }[] };
    const documentId = signerView.documents[0]!.id;
    const signed = await call(`/v1/signing/signer/signings/${packageId}/documents/${documentId}/esignatures`, {
      as: SIGNER,
      json: { kind: "typed", text: "Sam Signer", font: "caveat", consent: true },
    });
    expect(signed.status).toBe(201);
    let seal: { status: string; lastError: string | null } = { status: "none", lastError: null };
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const answer = await call(`/v1/signing/manager/signings/${packageId}/seal`, { as: MANAGER });
      if (answer.status === 200) {
        seal = (await answer.json()) as typeof seal;
        if (seal.status === "sealed" || seal.status === "failed") break;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(seal, server.output()).toMatchObject({ status: "sealed", lastError: null });
    const sealed = await call(`/v1/signing/manager/signings/${packageId}/sealed/${documentId}`, { as: MANAGER });
    expect(sealed.status).toBe(200);
    const sealedPdf = Buffer.from(await sealed.arrayBuffer());
    expect(sealedPdf.subarray(0, 5).toString()).toBe("%PDF-");

    // A hybrid package: its table packet, uploaded back as one PDF, is rasterized by pdf.js on
    // @napi-rs/canvas inside the function and each of the note's pages is matched.
    const hybrid = await call("/v1/signing/manager/signings", {
      as: MANAGER,
      json: {
        locationId: austin!.id,
        title: "Standalone hybrid",
        signers: [{ name: "Bo Rower", email: "borrower-standalone@demo.local" }],
        documents: [
          { name: "Disclosure.pdf", contentBase64: await pdf("Disclosure") },
          { name: "Note.pdf", contentBase64: await pdf("Note", 2), executionMode: "wet_sign" },
        ],
      },
    });
    expect(hybrid.status).toBe(201);
    const hybridId = ((await hybrid.json()) as { id: string }).id;
    expect((await call(`/v1/signing/manager/signings/${hybridId}/send`, { as: MANAGER, method: "POST" })).status).toBe(200);
    const packet = await call(`/v1/signing/manager/signings/${hybridId}/table-packet`, { as: MANAGER });
    expect(packet.status).toBe(200);
    const scan = await call(`/v1/signing/manager/signings/${hybridId}/scanbacks?name=packet.pdf`, {
      as: MANAGER,
      body: new Uint8Array(await packet.arrayBuffer()),
      headers: { "content-type": "application/pdf" },
    });
    expect(scan.status, server.output()).toBe(201);
    const report = ((await scan.json()) as { report: { pages: { status: string; documentName: string | null; pageNumber: number | null }[] } }).report;
    expect(report.pages.filter((p) => p.status === "matched").map((p) => [p.documentName, p.pageNumber])).toEqual([
      ["Note.pdf", 1],
      ["Note.pdf", 2],
    ]);

    // Nothing failed quietly on the read-only file system.
    expect(server.output()).not.toMatch(/EROFS|EACCES|ENOENT|Cannot find module/);
  }, 240_000);
});
