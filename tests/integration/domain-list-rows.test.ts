import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { getSigningAuditTrail } from "@/lib/signings/get-signing-audit-trail";
import { setEnvForTests } from "@/lib/env";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { seedDemo } from "@/lib/seed/seed-demo";
import { listAssignedSignings } from "@/lib/signings/list-assigned-signings";
import { listSignings } from "@/lib/signings/list-signings";
import { listOrganizationMembers } from "@/lib/workspace/list-organization-members";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

// Domain list functions hand back rows (Dates stay Dates) plus the next cursor; only /v1 routes
// turn them into `{ data, nextCursor }` JSON.

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
  await seedDemo(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

afterEach(() => {
  setEnvForTests({});
});

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

describe("domain list functions return rows, not JSON pages", () => {
  it("listSignings: package rows with Date timestamps and a cursor to the next page", async () => {
    const page = await listSignings(testDb.db, { principal: await principalFor("manager@demo.local"), limit: 1 });
    expect(Object.keys(page).sort()).toEqual(["nextCursor", "rows"]);
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(typeof page.nextCursor).toBe("string");

    const next = await listSignings(testDb.db, { principal: await principalFor("manager@demo.local"), limit: 1, cursor: page.nextCursor! });
    expect(next.rows[0]!.id).not.toBe(page.rows[0]!.id);
  });

  it("an admin's page carries the read cap and stops at it", async () => {
    setEnvForTests({ ADMIN_READ_CAP: "1" });
    const page = await listOrganizations(testDb.db, { principal: await principalFor("admin@demo.local"), limit: 25 });
    expect(page.cap).toBe(1);
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]!.createdAt).toBeInstanceOf(Date);
    expect(page.nextCursor).toBeNull();
  });

  it("listAssignedSignings: package rows with the caller's own signer row as `me`", async () => {
    const page = await listAssignedSignings(testDb.db, { principal: await principalFor("signer@demo.local"), limit: 25 });
    expect(page.rows.length).toBeGreaterThan(0);
    const [first] = page.rows;
    expect(first!.sentAt).toBeInstanceOf(Date);
    expect(first!.me).toMatchObject({ role: "signer", routingOrder: 1 });
    expect(page.nextCursor).toBeNull();
  });

  it("listOrganizationMembers: membership rows with their user", async () => {
    const page = await listOrganizationMembers(testDb.db, { principal: await principalFor("owner@demo.local"), limit: 100 });
    const owner = page.rows.find((m) => m.user.email === "owner@demo.local");
    expect(owner).toMatchObject({ role: "org_admin" });
    expect(owner!.createdAt).toBeInstanceOf(Date);
    expect(owner!.user.lastSignInAt === null || owner!.user.lastSignInAt instanceof Date).toBe(true);
  });

  it("getSigningAuditTrail: audit rows, the cursor and the chain verification", async () => {
    const manager = await principalFor("manager@demo.local");
    const [signing] = (await listSignings(testDb.db, { principal: manager, limit: 1 })).rows;
    const trail = await getSigningAuditTrail(testDb.db, { principal: manager, packageId: signing!.id, limit: 100 });
    expect(trail).toHaveProperty("rows");
    expect(trail).not.toHaveProperty("data");
    expect(trail.verified).toBe(true);
    for (const entry of trail.rows) expect(entry.createdAt).toBeInstanceOf(Date);
  });
});
