import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bankItems, packageSigners, webhookEvents } from "@/db/schema";
import { POST as exchangeRoute } from "@/app/api/bank/exchange/route";
import { POST as linkTokenRoute } from "@/app/api/bank/link-token/route";
import { GET as statusRoute } from "@/app/api/bank/status/route";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { getBankStep } from "@/lib/bank/get-bank-step";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { setEnvForTests } from "@/lib/env";
import { getSignerSession } from "@/lib/signer-access/get-signer-session";
import { openAccessLink } from "@/lib/signer-access/open-access-link";
import { signerSessionCookieName } from "@/lib/signer-access/rules";
import { signerSessionPrincipal } from "@/lib/signer-access/signer-session-principal";
import { createSigning } from "@/lib/signings/create-signing";
import { declineSigning } from "@/lib/signings/decline-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { startFakePlaid, type FakePlaid } from "@/tests/fakes/plaid/server";
import { bankEnv, bankRequest, sessionCookieFor } from "@/tests/helpers/bank";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "@/tests/helpers/fixtures";
import { inRequestScope } from "@/tests/helpers/next-request-scope";

// A borrower who opened the emailed link has a signer session for one package and no account: the
// bank step's routes take that session (named by `?package=`) and store the item on the signer.

const exchange = inRequestScope(exchangeRoute);
const linkToken = inRequestScope(linkTokenRoute);
const status = inRequestScope(statusRoute);

let testDb: TestDb;
let fake: FakePlaid;
let world: DemoWorld;
let manager: Principal;
let counter = 0;

beforeAll(async () => {
  testDb = await createTestDb();
  fake = await startFakePlaid();
  world = await loadDemoWorld(testDb.db);
  manager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@demo.local"));
});

beforeEach(() => {
  setEnvForTests(bankEnv(fake));
});

afterAll(async () => {
  setEnvForTests({});
  await fake.close();
  await testDb.cleanup();
});

/** A sent package (Demo Lending's default flow links a bank) for people without accounts, proof by link alone. */
async function sendPackage(emails: string[], options: { by?: Principal; locationId?: number } = {}): Promise<string> {
  counter += 1;
  const bytes = await renderAgreementPdf({ title: `Bank ${counter}`, parties: ["Borrower"], pages: 1 });
  const by = options.by ?? manager;
  const created = await createSigning(testDb.db, {
    principal: by,
    locationId: options.locationId ?? world.austin.id,
    title: `Bank by link ${counter}`,
    signers: emails.map((email, i) => ({ name: `Borrower ${i + 1}`, email, role: "signer" as const, routingOrder: 1 })),
    documents: [{ name: "Note.pdf", bytes }],
  });
  await testDb.db.update(packageSigners).set({ authMethod: "link" }).where(eq(packageSigners.packageId, created.id));
  await sendSigning(testDb.db, { principal: by, packageId: created.id });
  return created.id;
}

/** Opens the newest emailed link to `to` (what the interstitial's button does) and returns the cookie header. */
async function openLinkFor(to: string): Promise<{ packageId: string; signerId: string; cookie: string; principal: Principal }> {
  const mail = await lastDeliveredMailTo(testDb.db, to);
  const token = /\/access\/([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
  if (!token) throw new Error(`no access link mailed to ${to}`);
  const opened = await openAccessLink(testDb.db, { token, ipAddress: "203.0.113.9", userAgent: "test" });
  if (!opened) throw new Error("the link did not open");
  const context = await getSignerSession(testDb.db, { packageId: opened.packageId, value: opened.sessionValue });
  return {
    packageId: opened.packageId,
    signerId: context!.signer.id,
    cookie: `${signerSessionCookieName(opened.packageId, false)}=${opened.sessionValue}`,
    principal: signerSessionPrincipal(context!),
  };
}

async function json(response: Response) {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe("bank linking in a signer session (no account)", () => {
  it("link token → exchange → status through the routes; the item is the signer's, with no user", async () => {
    const packageId = await sendPackage(["lee.noaccount@example.test"]);
    const lee = await openLinkFor("lee.noaccount@example.test");
    const q = `?package=${packageId}`;

    // Without naming the package the cookie is not looked at: the routes still ask for a session.
    expect((await linkToken(bankRequest("/api/bank/link-token", { cookie: lee.cookie }))).status).toBe(401);

    expect(await json(await status(bankRequest(`/api/bank/status${q}`, { method: "GET", cookie: lee.cookie })))).toMatchObject({
      status: 200,
      body: { connected: false, item: null, items: [] },
    });

    const link = await json(await linkToken(bankRequest(`/api/bank/link-token${q}`, { cookie: lee.cookie })));
    expect(link.status).toBe(200);
    expect(link.body.link_token).toMatch(/^link-sandbox-/);
    const sent = fake.requests.filter((r) => r.path === "/link/token/create").at(-1)!.body as { user: { client_user_id: string } };
    // Plaid gets an id of ours for the signer, never the email.
    expect(sent.user.client_user_id).toBe(`signer:${lee.signerId}`);
    expect(JSON.stringify(sent)).not.toContain("lee.noaccount");

    const publicToken = fake.issuePublicToken({ institutionId: "ins_109508", institutionName: "First Platypus Bank" });
    // A write from another origin is refused before anything is exchanged.
    expect((await exchange(bankRequest(`/api/bank/exchange${q}`, { cookie: lee.cookie, origin: "https://evil.example", body: { public_token: publicToken } }))).status).toBe(403);
    const exchanged = await json(await exchange(bankRequest(`/api/bank/exchange${q}`, { cookie: lee.cookie, body: { public_token: publicToken } })));
    expect(exchanged).toMatchObject({ status: 200, body: { institution_id: "ins_109508", persisted: true } });
    const itemId = exchanged.body.item_id as string;

    const [row] = await testDb.db.select().from(bankItems).where(eq(bankItems.itemId, itemId));
    expect(row).toMatchObject({ signerId: lee.signerId, userId: null, institutionName: "First Platypus Bank", health: "healthy" });
    // Integrators hear of it as a bank.linked event: ids only, never the access token.
    const linked = await testDb.db.select().from(webhookEvents).where(eq(webhookEvents.type, "bank.linked"));
    expect(linked.map((e) => e.data)).toEqual([{ packageId, organizationId: expect.any(Number), signerId: lee.signerId, bankItemId: itemId }]);

    expect(await json(await status(bankRequest(`/api/bank/status${q}`, { method: "GET", cookie: lee.cookie })))).toMatchObject({
      status: 200,
      body: { connected: true, item: { item_id: itemId, institution_name: "First Platypus Bank" } },
    });
    // The bank step page reads the same link, with the institution's name.
    const step = await getBankStep(testDb.db, { principal: lee.principal, packageId });
    expect(step.availability).toBe("available");
    expect(step.bank.item).toMatchObject({ item_id: itemId, institution_name: "First Platypus Bank" });
  });

  it("a signer session is its own signer's only: not the co-signer's, not another package's, not an account's", async () => {
    const packageId = await sendPackage(["ana.first@example.test", "bo.second@example.test"]);
    const ana = await openLinkFor("ana.first@example.test");
    const bo = await openLinkFor("bo.second@example.test");
    const publicToken = fake.issuePublicToken({ institutionId: "ins_3", institutionName: "Chase" });
    const anaItem = await json(await exchange(bankRequest(`/api/bank/exchange?package=${packageId}`, { cookie: ana.cookie, body: { public_token: publicToken } })));
    expect(anaItem.status).toBe(200);

    // The co-signer of the same package sees nothing of Ana's bank.
    expect(await json(await status(bankRequest(`/api/bank/status?package=${packageId}`, { method: "GET", cookie: bo.cookie })))).toMatchObject({
      status: 200,
      body: { connected: false, items: [] },
    });

    // Ana's cookie names her package; asked for another package it is no session at all.
    const otherPackage = await sendPackage(["ana.first@example.test"]);
    for (const call of [
      () => status(bankRequest(`/api/bank/status?package=${otherPackage}`, { method: "GET", cookie: ana.cookie })),
      () => linkToken(bankRequest(`/api/bank/link-token?package=${otherPackage}`, { cookie: ana.cookie })),
      () => exchange(bankRequest(`/api/bank/exchange?package=${otherPackage}`, { cookie: ana.cookie, body: { public_token: fake.issuePublicToken() } })),
    ]) {
      expect((await call()).status).toBe(401);
    }
    // Her session on the other package (a new link) does not see the first package's bank either.
    const anaElsewhere = await openLinkFor("ana.first@example.test");
    expect(anaElsewhere.packageId).toBe(otherPackage);
    expect(await json(await status(bankRequest(`/api/bank/status?package=${otherPackage}`, { method: "GET", cookie: anaElsewhere.cookie })))).toMatchObject({
      body: { connected: false, items: [] },
    });

    // A malformed package id is no session either (never a 500).
    expect((await status(bankRequest(`/api/bank/status?package=not-a-uuid`, { method: "GET", cookie: ana.cookie }))).status).toBe(401);

    // An account holder with the same package named still gets their own (empty) bank, not Ana's.
    const account = await createUser(testDb.db, "someone.else@example.test");
    const accountCookie = await sessionCookieFor(account);
    expect(await json(await status(bankRequest(`/api/bank/status?package=${packageId}`, { method: "GET", cookie: accountCookie })))).toMatchObject({
      status: 200,
      body: { connected: false, items: [] },
    });
    // And an account holder's link keeps going to the user, with no signer.
    const theirs = await json(await exchange(bankRequest(`/api/bank/exchange`, { cookie: accountCookie, body: { public_token: fake.issuePublicToken() } })));
    expect(theirs.status).toBe(200);
    const [row] = await testDb.db.select().from(bankItems).where(eq(bankItems.itemId, theirs.body.item_id as string));
    expect(row).toMatchObject({ userId: account.id, signerId: null });
    // An account holder's link is not a signer's: no bank.linked event.
    expect((await testDb.db.select().from(webhookEvents).where(eq(webhookEvents.type, "bank.linked"))).map((e) => (e.data as { bankItemId: string }).bankItemId)).not.toContain(theirs.body.item_id);
  });

  it("refuses a signer session whose package has no bank step (403) or that was declined (409 package_closed)", async () => {
    const otherManager = await resolvePrincipal(testDb.db, localSubjectForEmail("manager@other.local"));
    const noBank = await sendPackage(["cy.nobank@example.test"], { by: otherManager, locationId: world.tulsa.id });
    const cy = await openLinkFor("cy.nobank@example.test");
    const refused = await json(await linkToken(bankRequest(`/api/bank/link-token?package=${noBank}`, { cookie: cy.cookie })));
    expect(refused).toEqual({ status: 403, body: { error: "This package doesn't ask you to link a bank account." } });
    expect(
      (await exchange(bankRequest(`/api/bank/exchange?package=${noBank}`, { cookie: cy.cookie, body: { public_token: fake.issuePublicToken() } }))).status,
    ).toBe(403);

    const packageId = await sendPackage(["di.declines@example.test"]);
    const di = await openLinkFor("di.declines@example.test");
    await declineSigning(testDb.db, { principal: di.principal, packageId, reason: "Wrong amount" });
    const publicToken = fake.issuePublicToken();
    const after = await exchange(bankRequest(`/api/bank/exchange?package=${packageId}`, { cookie: di.cookie, body: { public_token: publicToken } }));
    // The session outlives the decline (it still shows the declined page); the bank routes refuse it.
    expect(await json(after)).toEqual({ status: 409, body: { error: "This package is closed, so there is no bank to link for it.", reason: "package_closed" } });
    expect(await testDb.db.select().from(bankItems).where(eq(bankItems.signerId, di.signerId))).toEqual([]);
  });
});
