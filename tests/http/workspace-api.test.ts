import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { and, eq, sql } from "drizzle-orm";
import fc from "fast-check";
import { billingRecords, flows, jobs, memberships, organizations, outboxEmails, users } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { runDueJobs } from "@/lib/job-runner/run-due-jobs";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { ErrorBody } from "../helpers/schemas";
import { startFakeStripe } from "../fakes/stripe/start-fake-stripe";

const MyMemberships = z.strictObject({
  data: z.array(
    z.strictObject({
      id: z.uuid(),
      role: z.enum(["signer", "manager", "org_admin", "admin"]),
      organization: z.strictObject({ id: z.number().int(), name: z.string(), slug: z.string() }).nullable(),
      companyId: z.number().int().nullable(),
      locationId: z.number().int().nullable(),
    }),
  ),
});
const Membership = z.strictObject({
  id: z.uuid(),
  role: z.enum(["signer", "manager", "org_admin"]),
  organizationId: z.number().int(),
  companyId: z.number().int().nullable(),
  locationId: z.number().int().nullable(),
  user: z.strictObject({ id: z.uuid(), email: z.string(), name: z.string(), pending: z.boolean() }),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
const MembershipList = z.strictObject({ data: z.array(Membership), nextCursor: z.string().nullable() });
const Settings = z.strictObject({
  organizationId: z.number().int(),
  name: z.string(),
  branding: z.strictObject({
    logoUrl: z.string().nullable(),
    brandColor: z.string().nullable(),
    displayName: z.string().nullable(),
    supportEmail: z.string().nullable(),
    supportPhone: z.string().nullable(),
    footer: z.string().nullable(),
    logo: z.strictObject({ url: z.string(), contentType: z.string(), sizeBytes: z.number(), width: z.number(), height: z.number() }).nullable(),
  }),
  defaultFlowId: z.uuid().nullable(),
  reminderCadenceDays: z.number().int().nullable(),
  packageExpiryDays: z.number().int().nullable(),
  defaultLanguage: z.enum(["en", "es"]),
  updatedAt: z.iso.datetime(),
});
const Billing = z.strictObject({
  organizationId: z.number().int(),
  status: z.string(),
  planTier: z.enum(["free", "starter", "pro", "enterprise"]),
  currentPeriodEnd: z.iso.datetime().nullable(),
});

let testDb: TestDb;
let world: DemoWorld;
let demoOrg: number;
let otherOrg: number;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  demoOrg = world.austin.organizationId;
  otherOrg = world.tulsa.organizationId;
});
afterAll(() => testDb.cleanup());

async function api(email: string, path: string, init: { method?: string; json?: unknown } = {}) {
  return callApi(path, { ...init, token: await tokenFor(email) });
}

async function countMemberships(): Promise<number> {
  const [row] = await testDb.db.select({ n: sql<number>`count(*)::int` }).from(memberships);
  return row!.n;
}

describe("GET /v1/workspace/memberships", () => {
  it("lists the caller's own organizations and roles", async () => {
    const owner = MyMemberships.parse((await api("owner@demo.local", "/v1/workspace/memberships")).body);
    expect(owner.data).toEqual([{ id: expect.any(String), role: "org_admin", organization: { id: demoOrg, name: "Demo Lending Co.", slug: "demo" }, companyId: null, locationId: null }]);
    const admin = MyMemberships.parse((await api("admin@demo.local", "/v1/workspace/memberships")).body);
    expect(admin.data.map((m) => [m.role, m.organization])).toEqual([["admin", null]]);
    const signer = MyMemberships.parse((await api("signer@demo.local", "/v1/workspace/memberships")).body);
    expect(signer.data.map((m) => m.role)).toEqual(["signer"]);
  });
});

describe("members: invite, list, change role, remove", () => {
  it("invites an unknown email: creates a local user and a membership, mails an invitation", async () => {
    const res = await api("owner@demo.local", "/v1/workspace/memberships", {
      method: "POST",
      json: { email: "New.Manager@Example.com", name: "Nina New", role: "manager", locationId: world.dallas.id },
    });
    expect(res.status, res.text).toBe(201);
    const membership = Membership.parse(res.body);
    expect(membership).toMatchObject({ role: "manager", organizationId: demoOrg, companyId: world.dallas.companyId, locationId: world.dallas.id, user: { email: "New.Manager@Example.com", name: "Nina New", pending: true } });
    const [user] = await testDb.db.select().from(users).where(eq(users.id, membership.user.id));
    expect(user).toMatchObject({ authProvider: "local", authSubject: "local|new.manager@example.com", passwordHash: null });

    const [job] = await testDb.db.select().from(jobs).where(eq(jobs.idempotencyKey, `invite:${membership.id}`));
    expect(job).toMatchObject({ name: "send-email" });
    await runDueJobs(testDb.db, { workerId: "workspace-test" });
    const [mail] = await testDb.db.select().from(outboxEmails).where(eq(outboxEmails.to, "New.Manager@Example.com"));
    expect(mail!.subject).toBe("You're invited to Demo Lending Co.");
    expect(mail!.text).toContain("Olive Owner invited you");
    // The password link is in the delivered mail, and in no job (it was written when the mail was sent).
    const token = /\/accept-invite\?token=([\w-]{43})/.exec(mail!.text)?.[1];
    expect(token).toBeDefined();
    expect(JSON.stringify((await testDb.db.select({ payload: jobs.payload }).from(jobs)).map((r) => r.payload))).not.toContain(token!);
    expect(Object.keys(job!.payload as object)).not.toContain("text");

    // The invited user can use the API at once with a local token, within the invited scope.
    const mine = MyMemberships.parse((await api("new.manager@example.com", "/v1/workspace/memberships")).body);
    expect(mine.data.map((m) => m.locationId)).toEqual([world.dallas.id]);
  });

  it("inviting a known user reuses the row; the same role twice is 409", async () => {
    const first = await api("owner@demo.local", "/v1/workspace/memberships", { method: "POST", json: { email: "cosigner@demo.local", role: "manager" } });
    expect(first.status).toBe(201);
    const [cosigner] = await testDb.db.select().from(users).where(eq(users.email, "cosigner@demo.local"));
    expect(Membership.parse(first.body).user.id).toBe(cosigner!.id);
    const before = await countMemberships();
    const again = await api("owner@demo.local", "/v1/workspace/memberships", { method: "POST", json: { email: "COSIGNER@demo.local", role: "manager" } });
    expect(again.status).toBe(409);
    ErrorBody.parse(again.body);
    expect(await countMemberships()).toBe(before);
  });

  it("with Clerk configured, an invited user has no auth subject until the identity webhook links them", async () => {
    setEnvForTests({ CLERK_SECRET_KEY: "sk_test_fake" });
    try {
      const res = await api("owner@demo.local", "/v1/workspace/memberships", { method: "POST", json: { email: "clerk.invitee@example.com", role: "signer" } });
      expect(res.status).toBe(201);
      const [user] = await testDb.db.select().from(users).where(eq(users.email, "clerk.invitee@example.com"));
      expect(user).toMatchObject({ authProvider: "clerk", authSubject: null });
    } finally {
      setEnvForTests({});
    }
  });

  it("invite refusals: nothing created", async () => {
    const cases: [string, unknown, number][] = [
      ["manager@demo.local", { email: "x1@example.com", role: "manager" }, 403],
      ["signer@demo.local", { email: "x1@example.com", role: "manager" }, 403],
      ["admin@demo.local", { email: "x1@example.com", role: "manager" }, 403],
      ["owner@demo.local", { email: "x1@example.com", role: "manager", organizationId: otherOrg }, 404],
      ["owner@demo.local", { email: "x1@example.com", role: "manager", locationId: world.tulsa.id }, 404],
      ["owner@demo.local", { email: "x1@example.com", role: "manager", companyId: world.tulsa.companyId }, 404],
      ["owner@demo.local", { email: "x1@example.com", role: "admin" }, 400],
      ["owner@demo.local", { email: "not-an-email", role: "manager" }, 400],
      ["owner@demo.local", { email: "x1@example.com", role: "manager", extra: true }, 400],
    ];
    for (const [email, body, status] of cases) {
      const before = await countMemberships();
      const res = await api(email, "/v1/workspace/memberships", { method: "POST", json: body });
      expect(res.status, `${email} ${JSON.stringify(body)}`).toBe(status);
      ErrorBody.parse(res.body);
      expect(await countMemberships()).toBe(before);
    }
    const [ghost] = await testDb.db.select().from(users).where(eq(users.email, "x1@example.com"));
    expect(ghost).toBeUndefined();
  });

  it("lists the organization's members for org admins only", async () => {
    const page = MembershipList.parse((await api("owner@demo.local", "/v1/workspace/members?limit=100")).body);
    expect(page.data.every((m) => m.organizationId === demoOrg)).toBe(true);
    expect(page.data.map((m) => m.user.email)).toContain("manager@demo.local");
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const next: z.infer<typeof MembershipList> = MembershipList.parse(
        (await api("owner@demo.local", `/v1/workspace/members?limit=2${cursor ? `&cursor=${cursor}` : ""}`)).body,
      );
      paged.push(...next.data.map((m) => m.id));
      cursor = next.nextCursor;
    } while (cursor);
    expect(paged).toEqual(page.data.map((m) => m.id));
    expect((await api("manager@demo.local", "/v1/workspace/members")).status).toBe(403);
    expect((await api("signer@demo.local", "/v1/workspace/members")).status).toBe(403);
    expect((await api("owner@demo.local", `/v1/workspace/members?organizationId=${otherOrg}`)).status).toBe(404);
  });

  it("changes roles and removes members; never the last org_admin (409)", async () => {
    const [ownerMembership] = await testDb.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, demoOrg), eq(memberships.role, "org_admin")));
    const path = `/v1/workspace/memberships/${ownerMembership!.id}`;
    expect((await api("owner@demo.local", path, { method: "PATCH", json: { role: "manager" } })).status).toBe(409);
    expect((await api("owner@demo.local", path, { method: "DELETE" })).status).toBe(409);

    const invited = Membership.parse(
      (await api("owner@demo.local", "/v1/workspace/memberships", { method: "POST", json: { email: "second.admin@example.com", role: "manager" } })).body,
    );
    const promoted = await api("owner@demo.local", `/v1/workspace/memberships/${invited.id}`, { method: "PATCH", json: { role: "org_admin" } });
    expect(promoted.status).toBe(200);
    expect(Membership.parse(promoted.body).role).toBe("org_admin");

    // Now the first admin may step down, and the second one is the last again.
    expect((await api("owner@demo.local", path, { method: "PATCH", json: { role: "manager" } })).status).toBe(200);
    expect((await api("second.admin@example.com", `/v1/workspace/memberships/${invited.id}`, { method: "DELETE" })).status).toBe(409);
    expect((await api("second.admin@example.com", path, { method: "PATCH", json: { role: "org_admin" } })).status).toBe(200);

    const removed = await api("owner@demo.local", `/v1/workspace/memberships/${invited.id}`, { method: "DELETE" });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe("");
    expect((await api("owner@demo.local", `/v1/workspace/memberships/${invited.id}`, { method: "DELETE" })).status).toBe(404);
  });

  it("two org admins removing each other at once: exactly one succeeds, one org_admin remains", async () => {
    const [first] = await testDb.db
      .select({ id: memberships.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(users.email, "owner@demo.local"), eq(memberships.role, "org_admin")));
    const second = Membership.parse(
      (await api("owner@demo.local", "/v1/workspace/memberships", { method: "POST", json: { email: "race.admin@example.com", role: "org_admin" } })).body,
    );
    const results = await Promise.all([
      api("owner@demo.local", `/v1/workspace/memberships/${second.id}`, { method: "DELETE" }),
      api("race.admin@example.com", `/v1/workspace/memberships/${first!.id}`, { method: "DELETE" }),
    ]);
    // The loser is 409 (last org_admin), or 403 when its own role was already gone as its request began.
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(204);
    expect([403, 409]).toContain(statuses[1]);
    const admins = await testDb.db
      .select()
      .from(memberships)
      .where(and(eq(memberships.organizationId, demoOrg), eq(memberships.role, "org_admin")));
    expect(admins).toHaveLength(1);
    // Put the demo owner back for the tests that follow.
    if (results[1]!.status === 204) {
      await testDb.db.insert(memberships).values({ userId: (await testDb.db.select().from(users).where(eq(users.email, "owner@demo.local")))[0]!.id, role: "org_admin", organizationId: demoOrg });
    }
  });

  it("role change and removal: role matrix and validation, nothing changed on 4xx", async () => {
    const [managerMembership] = await testDb.db
      .select()
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.email, "manager@demo.local"));
    const [otherMembership] = await testDb.db
      .select()
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(users.email, "manager@other.local"));
    const path = (id: string) => `/v1/workspace/memberships/${id}`;
    const before = await countMemberships();
    const cases: [string, string, string, unknown, number][] = [
      ["manager@demo.local", path(managerMembership!.memberships.id), "PATCH", { role: "org_admin" }, 403],
      ["signer@demo.local", path(managerMembership!.memberships.id), "DELETE", undefined, 403],
      ["admin@demo.local", path(managerMembership!.memberships.id), "DELETE", undefined, 403],
      ["owner@demo.local", path(otherMembership!.memberships.id), "PATCH", { role: "signer" }, 404],
      ["owner@demo.local", path(otherMembership!.memberships.id), "DELETE", undefined, 404],
      ["owner@demo.local", path(managerMembership!.memberships.id), "PATCH", { role: "admin" }, 400],
      ["owner@demo.local", path(managerMembership!.memberships.id), "PATCH", {}, 400],
      ["owner@demo.local", "/v1/workspace/memberships/nope", "DELETE", undefined, 400],
    ];
    for (const [email, url, method, json, status] of cases) {
      const res = await api(email, url, { method, json });
      expect(res.status, `${email} ${method} ${url}`).toBe(status);
      ErrorBody.parse(res.body);
    }
    expect(await countMemberships()).toBe(before);
    const [unchanged] = await testDb.db.select().from(memberships).where(eq(memberships.id, managerMembership!.memberships.id));
    expect(unchanged!.role).toBe("manager");
  });
});

describe("settings", () => {
  it("reads defaults, updates name, branding, default flow and cadences; null clears", async () => {
    const initial = Settings.parse((await api("owner@demo.local", "/v1/workspace/settings")).body);
    expect(initial).toMatchObject({ organizationId: demoOrg, name: "Demo Lending Co.", branding: { logoUrl: null, brandColor: null }, defaultFlowId: null });
    const [flow] = await testDb.db.select().from(flows).where(eq(flows.organizationId, demoOrg));
    const res = await api("owner@demo.local", "/v1/workspace/settings", {
      method: "PATCH",
      json: {
        name: "Demo Lending Company",
        branding: { logoUrl: "https://cdn.example.com/logo.svg", brandColor: "#1A2B3C" },
        defaultFlowId: flow!.id,
        reminderCadenceDays: 3,
        packageExpiryDays: 30,
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(Settings.parse(res.body)).toMatchObject({
      name: "Demo Lending Company",
      branding: { logoUrl: "https://cdn.example.com/logo.svg", brandColor: "#1a2b3c" },
      defaultFlowId: flow!.id,
      reminderCadenceDays: 3,
      packageExpiryDays: 30,
    });
    const cleared = Settings.parse((await api("owner@demo.local", "/v1/workspace/settings", { method: "PATCH", json: { branding: { logoUrl: null }, reminderCadenceDays: null } })).body);
    expect(cleared).toMatchObject({ branding: { logoUrl: null, brandColor: "#1a2b3c" }, reminderCadenceDays: null, packageExpiryDays: 30 });
    const [org] = await testDb.db.select().from(organizations).where(eq(organizations.id, demoOrg));
    expect(org!.settings).toEqual({ brandColor: "#1a2b3c", defaultFlowId: flow!.id, packageExpiryDays: 30 });
  });

  it("refusals: nothing changed", async () => {
    const [foreignFlow] = await testDb.db.select().from(flows).where(eq(flows.organizationId, otherOrg));
    const [before] = await testDb.db.select().from(organizations).where(eq(organizations.id, demoOrg));
    const cases: [string, string, unknown, number][] = [
      ["manager@demo.local", "", { name: "x" }, 403],
      ["signer@demo.local", "", { name: "x" }, 403],
      ["admin@demo.local", "", { name: "x" }, 403],
      ["owner@demo.local", `?organizationId=${otherOrg}`, { name: "x" }, 404],
      ["owner@demo.local", "", { branding: { logoUrl: "http://insecure.example.com/l.png" } }, 400],
      ["owner@demo.local", "", { branding: { logoUrl: "javascript:alert(1)" } }, 400],
      ["owner@demo.local", "", { branding: { brandColor: "red" } }, 400],
      ["owner@demo.local", "", { branding: { brandColor: "#12345" } }, 400],
      ["owner@demo.local", "", { defaultFlowId: foreignFlow!.id }, 400],
      ["owner@demo.local", "", { reminderCadenceDays: 0 }, 400],
      ["owner@demo.local", "", { packageExpiryDays: 1.5 }, 400],
      ["owner@demo.local", "", { name: "" }, 400],
      ["owner@demo.local", "", {}, 400],
      ["owner@demo.local", "", { theme: "dark" }, 400],
    ];
    for (const [email, query, body, status] of cases) {
      const res = await api(email, `/v1/workspace/settings${query}`, { method: "PATCH", json: body });
      expect(res.status, `${email} ${JSON.stringify(body)}`).toBe(status);
      ErrorBody.parse(res.body);
    }
    const [after] = await testDb.db.select().from(organizations).where(eq(organizations.id, demoOrg));
    expect(after).toEqual(before);
    expect((await api("manager@demo.local", "/v1/workspace/settings")).status).toBe(403);
    expect((await api("manager@other.local", "/v1/workspace/settings")).status).toBe(403);
  });
});

describe("billing", () => {
  it("reads free/active without a record, and the record when there is one", async () => {
    expect(Billing.parse((await api("owner@demo.local", "/v1/workspace/billing")).body)).toEqual({
      organizationId: demoOrg,
      status: "active",
      planTier: "free",
      currentPeriodEnd: null,
    });
    await testDb.db.insert(billingRecords).values({ organizationId: demoOrg, status: "past_due", planTier: "pro", currentPeriodEnd: new Date("2027-01-01T00:00:00Z") });
    expect(Billing.parse((await api("owner@demo.local", "/v1/workspace/billing")).body)).toEqual({
      organizationId: demoOrg,
      status: "past_due",
      planTier: "pro",
      currentPeriodEnd: "2027-01-01T00:00:00.000Z",
    });
    expect((await api("manager@demo.local", "/v1/workspace/billing")).status).toBe(403);
    expect((await api("signer@demo.local", "/v1/workspace/billing")).status).toBe(403);
    expect((await api("owner@demo.local", `/v1/workspace/billing?organizationId=${otherOrg}`)).status).toBe(404);
  });

  it("creates a Stripe Checkout session through the real SDK against a fake Stripe", async () => {
    const stripe = await startFakeStripe();
    setEnvForTests({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_PRICE_PRO: "price_pro_123", STRIPE_API_BASE_URL: stripe.baseUrl, APP_URL: "https://app.example.com" });
    try {
      const res = await api("owner@demo.local", "/v1/workspace/billing/checkout", { method: "POST", json: { tier: "pro" } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ url: "https://checkout.stripe.test/c/pay/cs_test_fake_1" });
      expect(stripe.requests).toHaveLength(1);
      const [request] = stripe.requests;
      expect(request!.method).toBe("POST");
      expect(request!.path).toBe("/v1/checkout/sessions");
      expect(request!.headers.authorization).toBe("Bearer sk_test_fake");
      expect(request!.form).toMatchObject({
        mode: "subscription",
        "line_items[0][price]": "price_pro_123",
        "line_items[0][quantity]": "1",
        client_reference_id: String(demoOrg),
        "metadata[organizationId]": String(demoOrg),
        "metadata[planTier]": "pro",
        "subscription_data[metadata][organizationId]": String(demoOrg),
        "subscription_data[metadata][planTier]": "pro",
        customer_email: "owner@demo.local",
      });
      expect(request!.form.success_url).toMatch(/^https:\/\/app\.example\.com\//);
      expect(request!.form.cancel_url).toMatch(/^https:\/\/app\.example\.com\//);

      // A tier without a configured price, or a failing provider: 503.
      expect((await api("owner@demo.local", "/v1/workspace/billing/checkout", { method: "POST", json: { tier: "starter" } })).status).toBe(503);
      stripe.fail(500);
      const failed = await api("owner@demo.local", "/v1/workspace/billing/checkout", { method: "POST", json: { tier: "pro" } });
      expect(failed.status).toBe(503);
      ErrorBody.parse(failed.body);

      stripe.requests.length = 0;
      for (const [email, body, status] of [
        ["manager@demo.local", { tier: "pro" }, 403],
        ["signer@demo.local", { tier: "pro" }, 403],
        ["admin@demo.local", { tier: "pro" }, 403],
        ["owner@demo.local", { tier: "pro", organizationId: otherOrg }, 404],
        ["owner@demo.local", { tier: "free" }, 400],
        ["owner@demo.local", {}, 400],
      ] as const) {
        expect((await api(email, "/v1/workspace/billing/checkout", { method: "POST", json: body })).status, `${email} ${JSON.stringify(body)}`).toBe(status);
      }
      expect(stripe.requests).toEqual([]);
    } finally {
      setEnvForTests({});
      await stripe.stop();
    }
  });

  it("opens Stripe's billing portal for the organization's customer through the real SDK against a fake Stripe", async () => {
    const stripe = await startFakeStripe();
    setEnvForTests({ STRIPE_SECRET_KEY: "sk_test_fake", STRIPE_API_BASE_URL: stripe.baseUrl, APP_URL: "https://app.example.com" });
    try {
      // No customer yet (never checked out): a 409 that says what to do, and Stripe is not called.
      await testDb.db.delete(billingRecords).where(eq(billingRecords.organizationId, demoOrg));
      const early = await api("owner@demo.local", "/v1/workspace/billing/portal", { method: "POST", json: {} });
      expect(early.status).toBe(409);
      expect(ErrorBody.parse(early.body).error).toMatch(/upgrade first/i);
      expect(stripe.requests).toEqual([]);

      await testDb.db.insert(billingRecords).values({ organizationId: demoOrg, stripeCustomerId: "cus_fake_42", status: "active", planTier: "pro" });
      const res = await api("owner@demo.local", "/v1/workspace/billing/portal", { method: "POST", json: {} });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ url: "https://billing.stripe.test/p/session/bps_test_fake_1" });
      expect(stripe.requests).toHaveLength(1);
      expect(stripe.requests[0]!.path).toBe("/v1/billing_portal/sessions");
      expect(stripe.requests[0]!.headers.authorization).toBe("Bearer sk_test_fake");
      expect(stripe.requests[0]!.form).toEqual({
        customer: "cus_fake_42",
        return_url: `https://app.example.com/workspace/billing?organizationId=${demoOrg}`,
      });

      stripe.fail(500);
      expect((await api("owner@demo.local", "/v1/workspace/billing/portal", { method: "POST", json: {} })).status).toBe(503);
      stripe.fail(null);
      stripe.requests.length = 0;
      for (const [email, body, status] of [
        ["manager@demo.local", {}, 403],
        ["signer@demo.local", {}, 403],
        ["owner@demo.local", { organizationId: otherOrg }, 404],
        ["owner@demo.local", { customer: "cus_someone_else" }, 400],
      ] as const) {
        expect((await api(email, "/v1/workspace/billing/portal", { method: "POST", json: body })).status, `${email} ${JSON.stringify(body)}`).toBe(status);
      }
      expect(stripe.requests).toEqual([]);
    } finally {
      setEnvForTests({});
      await stripe.stop();
      await testDb.db.delete(billingRecords).where(eq(billingRecords.organizationId, demoOrg));
    }
  });

  it("without Stripe configured: 503", async () => {
    const res = await api("owner@demo.local", "/v1/workspace/billing/checkout", { method: "POST", json: { tier: "pro" } });
    expect(res.status).toBe(503);
    ErrorBody.parse(res.body);
  });
});

describe("fuzz: malformed input never 5xx", () => {
  it("workspace bodies", async () => {
    const token = await tokenFor("owner@demo.local");
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.constantFrom("/v1/workspace/memberships", "/v1/workspace/settings", "/v1/workspace/billing/checkout"), async (body, path) => {
        const res = await callApi(path, { method: path.endsWith("settings") ? "PATCH" : "POST", token, json: body });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  it("organizationId queries", async () => {
    const token = await tokenFor("owner@demo.local");
    await fc.assert(
      fc.asyncProperty(fc.string(), async (value) => {
        const res = await callApi(`/v1/workspace/settings?organizationId=${encodeURIComponent(value)}`, { token });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 40 },
    );
  });
});
