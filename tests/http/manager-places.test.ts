import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { auditLog, companies, locations, memberships, organizations, users } from "@/db/schema";
import { setEnvForTests } from "@/lib/env";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser } from "../helpers/fixtures";
import { as, BASE, loadManagerWorld } from "../helpers/manager";
import { ErrorBody, pageOf } from "../helpers/schemas";

const iso = z.iso.datetime();
const Organization = z.strictObject({ id: z.number().int(), name: z.string(), slug: z.string(), createdAt: iso, updatedAt: iso });
const Company = z.strictObject({ id: z.number().int(), organizationId: z.number().int(), name: z.string(), createdAt: iso, updatedAt: iso });
const Location = z.strictObject({
  id: z.number().int(),
  organizationId: z.number().int(),
  companyId: z.number().int(),
  name: z.string(),
  addressLine1: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postalCode: z.string().nullable(),
  timezone: z.string(),
  createdAt: iso,
  updatedAt: iso,
});

let testDb: TestDb;
let world: Awaited<ReturnType<typeof loadManagerWorld>>;
let demoOrg: number;
let otherOrg: number;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadManagerWorld(testDb.db);
  demoOrg = world.austin.organizationId;
  otherOrg = world.tulsa.organizationId;
});
afterAll(() => testDb.cleanup());

const auditActions = async (entityType: string, entityId: string | number) =>
  (await testDb.db.select().from(auditLog).where(eq(auditLog.entityId, String(entityId)))).filter((e) => e.entityType === entityType).map((e) => e.action);

describe("organizations", () => {
  it("lists only organizations the caller holds a role in; an admin lists all with the cap stated", async () => {
    const mine = pageOf(Organization).parse((await as("manager@demo.local", `${BASE}/organizations`)).body);
    expect(mine.data.map((o) => o.id)).toEqual([demoOrg]);
    expect(mine.cap).toBeUndefined();
    const branch = pageOf(Organization).parse((await as("branch@demo.local", `${BASE}/organizations`)).body);
    expect(branch.data.map((o) => o.id)).toEqual([demoOrg]);
    setEnvForTests({ ADMIN_READ_CAP: "1" });
    try {
      const admin = pageOf(Organization).parse((await as("admin@demo.local", `${BASE}/organizations`)).body);
      expect(admin).toMatchObject({ cap: 1, nextCursor: null });
      expect(admin.data).toHaveLength(1);
    } finally {
      setEnvForTests({});
    }
    const all = pageOf(Organization).parse((await as("admin@demo.local", `${BASE}/organizations?limit=1`)).body);
    const next = pageOf(Organization).parse((await as("admin@demo.local", `${BASE}/organizations?limit=1&cursor=${all.nextCursor}`)).body);
    expect([...all.data, ...next.data].map((o) => o.id)).toEqual([demoOrg, otherOrg]);
  });

  it("reads one in scope; 404 outside; 403 for a signer", async () => {
    expect(Organization.parse((await as("manager@demo.local", `${BASE}/organizations/${demoOrg}`)).body).id).toBe(demoOrg);
    expect((await as("admin@demo.local", `${BASE}/organizations/${otherOrg}`)).status).toBe(200);
    for (const path of [`${BASE}/organizations/${otherOrg}`, `${BASE}/organizations/99999`, `${BASE}/organizations/abc`]) {
      const res = await as("manager@demo.local", path);
      expect(res.status).toBe(404);
      ErrorBody.parse(res.body);
    }
    expect((await as("signer@demo.local", `${BASE}/organizations/${demoOrg}`)).status).toBe(403);
  });

  it("an org_admin creates an organization and becomes its org_admin; managers and admins may not", async () => {
    const res = await as("owner@demo.local", `${BASE}/organizations`, { method: "POST", json: { name: "Second Lending Co." } });
    expect(res.status).toBe(201);
    const created = Organization.parse(res.body);
    expect(created.slug).toBe("second-lending-co");
    const [owner] = await testDb.db.select().from(users).where(eq(users.email, "owner@demo.local"));
    const roles = await testDb.db.select().from(memberships).where(eq(memberships.organizationId, created.id));
    expect(roles).toEqual([expect.objectContaining({ userId: owner!.id, role: "org_admin" })]);
    expect(await auditActions("organization", created.id)).toEqual(["organization.created"]);

    const again = await as("owner@demo.local", `${BASE}/organizations`, { method: "POST", json: { name: "Second Lending Co." } });
    expect(Organization.parse(again.body).slug).toMatch(/^second-lending-co-[0-9a-f]{6}$/);
    const taken = await as("owner@demo.local", `${BASE}/organizations`, { method: "POST", json: { name: "X", slug: "demo" } });
    expect(taken.status).toBe(409);

    for (const email of ["manager@demo.local", "admin@demo.local", "signer@demo.local"]) {
      const denied = await as(email, `${BASE}/organizations`, { method: "POST", json: { name: "Nope" } });
      expect(denied.status).toBe(403);
      expect(denied.body).toEqual({ error: "You do not have permission to create organizations." });
    }
  });

  it.each([["empty name", { name: "" }], ["bad slug", { name: "A", slug: "Not A Slug" }], ["unknown field", { name: "A", plan: "pro" }]])(
    "create: 400 for %s",
    async (_, body) => {
      const before = await testDb.db.select().from(organizations);
      const res = await as("owner@demo.local", `${BASE}/organizations`, { method: "POST", json: body });
      expect(res.status).toBe(400);
      ErrorBody.parse(res.body);
      expect(await testDb.db.select().from(organizations)).toHaveLength(before.length);
    },
  );

  it("renaming needs org_admin: 200 for the owner, 403 for a manager, 404 for another organization's admin", async () => {
    const ok = await as("owner@demo.local", `${BASE}/organizations/${demoOrg}`, { method: "PATCH", json: { name: "Demo Lending Company" } });
    expect(ok.status).toBe(200);
    expect(Organization.parse(ok.body).name).toBe("Demo Lending Company");
    expect(await auditActions("organization", demoOrg)).toContain("organization.updated");
    expect((await as("manager@demo.local", `${BASE}/organizations/${demoOrg}`, { method: "PATCH", json: { name: "X" } })).status).toBe(403);
    await createUser(testDb.db, "otheradmin@other.local", [{ role: "org_admin", organizationId: otherOrg }]);
    expect((await as("otheradmin@other.local", `${BASE}/organizations/${demoOrg}`, { method: "PATCH", json: { name: "X" } })).status).toBe(404);
    expect((await as("owner@demo.local", `${BASE}/organizations/${demoOrg}`, { method: "PATCH", json: {} })).status).toBe(400);
  });

  it("deleting: 409 while it has dependents; 204 when empty", async () => {
    const busy = await as("owner@demo.local", `${BASE}/organizations/${demoOrg}`, { method: "DELETE" });
    expect(busy.status).toBe(409);
    expect((busy.body as { error: string }).error).toMatch(/still has .*companies/);
    const created = Organization.parse((await as("owner@demo.local", `${BASE}/organizations`, { method: "POST", json: { name: "Short-lived" } })).body);
    expect((await as("manager@demo.local", `${BASE}/organizations/${created.id}`, { method: "DELETE" })).status).toBe(403);
    const res = await as("owner@demo.local", `${BASE}/organizations/${created.id}`, { method: "DELETE" });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await testDb.db.select().from(organizations).where(eq(organizations.id, created.id))).toEqual([]);
    expect(await auditActions("organization", created.id)).toEqual(["organization.created", "organization.deleted"]);
  });
});

describe("companies", () => {
  it("lists companies in scope; location-level managers see none; admin sees all with the cap", async () => {
    expect(pageOf(Company).parse((await as("manager@demo.local", `${BASE}/companies`)).body).data.map((c) => c.id)).toEqual([world.austin.companyId]);
    expect(pageOf(Company).parse((await as("company@demo.local", `${BASE}/companies`)).body).data.map((c) => c.id)).toEqual([world.austin.companyId]);
    expect(pageOf(Company).parse((await as("branch@demo.local", `${BASE}/companies`)).body).data).toEqual([]);
    const admin = pageOf(Company).parse((await as("admin@demo.local", `${BASE}/companies?organizationId=${otherOrg}`)).body);
    expect(admin.cap).toBeGreaterThan(0);
    expect(admin.data.map((c) => c.id)).toEqual([world.tulsa.companyId]);
    expect((await as("signer@demo.local", `${BASE}/companies`)).status).toBe(403);
  });

  it("an organization-level manager creates, renames and deletes a company, with audit entries", async () => {
    const res = await as("manager@demo.local", `${BASE}/companies`, { method: "POST", json: { organizationId: demoOrg, name: "Demo Auto Credit" } });
    expect(res.status).toBe(201);
    const company = Company.parse(res.body);
    expect(company.organizationId).toBe(demoOrg);
    const read = await as("manager@demo.local", `${BASE}/companies/${company.id}`);
    expect(Company.parse(read.body).name).toBe("Demo Auto Credit");
    const renamed = await as("owner@demo.local", `${BASE}/companies/${company.id}`, { method: "PATCH", json: { name: "Demo Auto" } });
    expect(Company.parse(renamed.body).name).toBe("Demo Auto");
    const del = await as("manager@demo.local", `${BASE}/companies/${company.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await auditActions("company", company.id)).toEqual(["company.created", "company.updated", "company.deleted"]);
  });

  it.each<[string, () => number, number]>([
    ["company@demo.local", () => demoOrg, 403],
    ["branch@demo.local", () => demoOrg, 403],
    ["manager@other.local", () => demoOrg, 404],
    ["manager@demo.local", () => 99999, 404],
    ["admin@demo.local", () => demoOrg, 403],
    ["signer@demo.local", () => demoOrg, 403],
    ["owner@demo.local", () => demoOrg, 201],
  ])("create as %s → %i", async (email, orgId, status) => {
    const before = (await testDb.db.select().from(companies)).length;
    const res = await as(email, `${BASE}/companies`, { method: "POST", json: { organizationId: orgId(), name: "Matrix Co" } });
    expect(res.status).toBe(status);
    if (status !== 201) {
      ErrorBody.parse(res.body);
      expect(await testDb.db.select().from(companies)).toHaveLength(before);
    }
  });

  it("409 deleting a company with locations; 404 for another organization's; 400 for bad bodies", async () => {
    const busy = await as("manager@demo.local", `${BASE}/companies/${world.austin.companyId}`, { method: "DELETE" });
    expect(busy.status).toBe(409);
    expect((busy.body as { error: string }).error).toMatch(/locations/);
    expect((await as("manager@demo.local", `${BASE}/companies/${world.tulsa.companyId}`, { method: "DELETE" })).status).toBe(404);
    expect((await as("manager@demo.local", `${BASE}/companies/${world.tulsa.companyId}`)).status).toBe(404);
    expect((await as("manager@demo.local", `${BASE}/companies`, { method: "POST", json: { organizationId: "1", name: "X" } })).status).toBe(400);
    expect((await as("manager@demo.local", `${BASE}/companies/${world.austin.companyId}`, { method: "PATCH", json: { name: "" } })).status).toBe(400);
  });
});

describe("locations", () => {
  it("lists locations in scope (location-level managers: theirs), with filters", async () => {
    const names = async (email: string, query = "") =>
      pageOf(Location).parse((await as(email, `${BASE}/locations${query}`)).body).data.map((l) => l.name);
    expect(await names("manager@demo.local")).toEqual(["Austin Branch", "Dallas Branch"]);
    expect(await names("branch@demo.local")).toEqual(["Austin Branch"]);
    expect(await names("manager@other.local")).toEqual(["Tulsa Office"]);
    expect(await names("admin@demo.local", `?companyId=${world.tulsa.companyId}`)).toEqual(["Tulsa Office"]);
    expect((await as("signer@demo.local", `${BASE}/locations`)).status).toBe(403);
    expect((await as("manager@demo.local", `${BASE}/locations?companyId=abc`)).status).toBe(400);
  });

  it("a company-level manager creates a location; it is then usable for signings; then updated and deleted", async () => {
    const res = await as("company@demo.local", `${BASE}/locations`, {
      method: "POST",
      json: { companyId: world.austin.companyId, name: "Houston Branch", city: "Houston", region: "TX", timezone: "America/Chicago" },
    });
    expect(res.status).toBe(201);
    const location = Location.parse(res.body);
    expect(location).toMatchObject({ organizationId: demoOrg, companyId: world.austin.companyId, timezone: "America/Chicago", postalCode: null });
    const patched = await as("manager@demo.local", `${BASE}/locations/${location.id}`, { method: "PATCH", json: { postalCode: "77002", addressLine1: null } });
    expect(Location.parse(patched.body).postalCode).toBe("77002");
    expect((await as("manager@demo.local", `${BASE}/locations/${location.id}`)).status).toBe(200);
    const del = await as("company@demo.local", `${BASE}/locations/${location.id}`, { method: "DELETE" });
    expect(del.status).toBe(204);
    expect(await testDb.db.select().from(locations).where(eq(locations.id, location.id))).toEqual([]);
    expect(await auditActions("location", location.id)).toEqual(["location.created", "location.updated", "location.deleted"]);
  });

  it.each<[string, number]>([
    ["branch@demo.local", 404],
    ["manager@other.local", 404],
    ["admin@demo.local", 403],
    ["signer@demo.local", 403],
    ["cosigner@demo.local", 403],
    ["owner@demo.local", 201],
  ])("create as %s → %i", async (email, status) => {
    const before = (await testDb.db.select().from(locations)).length;
    const res = await as(email, `${BASE}/locations`, { method: "POST", json: { companyId: world.austin.companyId, name: "Matrix Branch" } });
    expect(res.status).toBe(status);
    if (status !== 201) expect(await testDb.db.select().from(locations)).toHaveLength(before);
  });

  it("409 deleting a location with signing packages or role assignments; 404 out of scope; 400 bad bodies", async () => {
    const busy = await as("manager@demo.local", `${BASE}/locations/${world.austin.id}`, { method: "DELETE" });
    expect(busy.status).toBe(409);
    expect((busy.body as { error: string }).error).toMatch(/signing packages|role assignments/);
    expect((await as("branch@demo.local", `${BASE}/locations/${world.dallas.id}`, { method: "PATCH", json: { name: "X" } })).status).toBe(404);
    expect((await as("branch@demo.local", `${BASE}/locations/${world.austin.id}`, { method: "PATCH", json: { city: "Austin TX" } })).status).toBe(200);
    for (const body of [{}, { timezone: "Mars/Olympus" }, { name: "" }, { companyId: 2 }]) {
      expect((await as("manager@demo.local", `${BASE}/locations/${world.austin.id}`, { method: "PATCH", json: body })).status).toBe(400);
    }
    expect((await as("manager@demo.local", `${BASE}/locations`, { method: "POST", json: { name: "No company" } })).status).toBe(400);
    expect((await as("manager@demo.local", `${BASE}/locations/0`)).status).toBe(404);
  });
});
