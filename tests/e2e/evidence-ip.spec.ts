import { randomBytes } from "node:crypto";
import type { APIRequestContext, Page } from "@playwright/test";
import { eq } from "drizzle-orm";
import { openDb } from "@/db/client";
import { auditLog, eSignatures } from "@/db/schema";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { ApiKeysPage } from "./pages/api-keys-page";
import { e2eDatabaseUrl, expect, signInAs, test } from "./support/fixtures";

/**
 * Issue 14.4 under `next start` (the suite's web server, TRUSTED_PROXY_HOPS unset): a signer who
 * forges X-Forwarded-For is recorded under the socket address, in the e-signature and in the audit
 * chain. Next fills X-Forwarded-For itself only when the client sent none, so this holds only because
 * instrumentation.ts installs the peer-address hook in the serving process (docs/security.md).
 *
 * The package is made in the other organization (manager@other.local) for cosigner@demo.local, so
 * the Demo Lending lists other tests count stay as seeded.
 */
const FORGED = "203.0.113.7";
const LOOPBACK = ["127.0.0.1", "::1"];

/** Signs in through the browser, creates a personal API key and exchanges it for a /v1 token. */
async function bearerFor(page: Page, email: string): Promise<Record<string, string>> {
  await page.context().clearCookies();
  await signInAs(page, email);
  const apiKey = await (await new ApiKeysPage(page).goto()).create(`evidence ip ${randomBytes(3).toString("hex")}`);
  const exchanged = await page.request.post("/api/auth/token", { data: { apiKey } });
  expect(exchanged.status()).toBe(200);
  return { authorization: `Bearer ${((await exchanged.json()) as { token: string }).token}` };
}

async function json<T>(response: Awaited<ReturnType<APIRequestContext["get"]>>, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test.describe("the signer's evidence IP behind next start", { tag: "@desktop" }, () => {
  test("a forged X-Forwarded-For is ignored: the e-signature and its audit entry carry the socket address", async ({ page, request }) => {
    const manager = await bearerFor(page, "manager@other.local");
    const locations = await json<{ data: { id: number; name: string }[] }>(
      await request.get("/v1/signing/manager/locations", { headers: manager }),
      200,
    );
    const tulsa = locations.data.find((location) => location.name === "Tulsa Office");
    expect(tulsa).toBeDefined();
    const pdf = await renderAgreementPdf({ title: `Evidence IP ${randomBytes(4).toString("hex")}`, parties: ["Buyer: Casey Cosigner"], pages: 1 });
    const draft = await json<{ id: string }>(
      await request.post("/v1/signing/manager/signings", {
        headers: manager,
        data: {
          locationId: tulsa!.id,
          title: "Evidence IP check",
          signers: [{ name: "Casey Cosigner", email: "cosigner@demo.local" }],
          documents: [{ name: "Evidence.pdf", contentBase64: Buffer.from(pdf).toString("base64") }],
        },
      }),
      201,
    );
    await json(await request.post(`/v1/signing/manager/signings/${draft.id}/send`, { headers: manager }), 200);

    const signer = { ...(await bearerFor(page, "cosigner@demo.local")), "x-forwarded-for": FORGED, "x-real-ip": FORGED };
    const detail = await json<{ documents: { id: string; sha256: string }[] }>(
      await request.get(`/v1/signing/signer/signings/${draft.id}`, { headers: signer }),
      200,
    );
    const document = detail.documents[0]!;
    const recorded = await json<{ id: string; ipAddress: string | null }>(
      await request.post(`/v1/signing/signer/signings/${draft.id}/documents/${document.id}/esignatures`, {
        headers: signer,
        data: { kind: "typed", text: "Casey Cosigner", font: "caveat", consent: true, documentSha256: document.sha256 },
      }),
      201,
    );
    expect(LOOPBACK).toContain(recorded.ipAddress);

    const trail = await json<{ data: { entityId: string; action: string; ipAddress: string | null }[]; verified: boolean }>(
      await request.get(`/v1/signing/manager/signings/${draft.id}/audit?limit=100`, { headers: manager }),
      200,
    );
    expect(trail.verified).toBe(true);
    const entry = trail.data.find((e) => e.entityId === recorded.id);
    expect(entry, JSON.stringify(trail.data)).toBeDefined();
    expect(entry!.ipAddress).toBe(recorded.ipAddress);
    for (const e of trail.data) expect(e.ipAddress, e.action).not.toBe(FORGED);

    // What the database holds (PostgreSQL runs only: on PGlite the server holds the database).
    if (e2eDatabaseUrl()) {
      const handle = await openDb({ url: e2eDatabaseUrl() }, { max: 1 });
      try {
        const [row] = await handle.db.select({ ipAddress: eSignatures.ipAddress }).from(eSignatures).where(eq(eSignatures.id, recorded.id));
        expect(row?.ipAddress).toBe(recorded.ipAddress);
        const entries = await handle.db.select({ ipAddress: auditLog.ipAddress }).from(auditLog).where(eq(auditLog.entityId, recorded.id));
        expect(entries.length).toBeGreaterThan(0);
        for (const e of entries) expect(e.ipAddress).toBe(recorded.ipAddress);
      } finally {
        await handle.close();
      }
    }
  });
});
