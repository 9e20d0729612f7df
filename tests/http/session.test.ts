import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { callApi, tokenFor } from "../helpers/api";
import { createTestDb, type TestDb } from "../helpers/db";
import { createUser, loadDemoWorld, type DemoWorld } from "../helpers/fixtures";

const SessionBody = z.strictObject({
  user: z.strictObject({ id: z.uuid(), email: z.email(), name: z.string().min(1), authProvider: z.enum(["local", "clerk"]) }),
  roles: z.array(
    z.strictObject({
      id: z.uuid(),
      role: z.enum(["signer", "manager", "org_admin", "admin"]),
      scope: z.object({ type: z.enum(["global", "organization", "company", "location"]) }).loose(),
    }),
  ),
  capabilities: z.array(z.string()),
});

let testDb: TestDb;
let world: DemoWorld;

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
  await createUser(testDb.db, "branch@demo.local", [
    { role: "manager", organizationId: world.austin.organizationId, companyId: world.austin.companyId, locationId: world.austin.id },
  ]);
});
afterAll(() => testDb.cleanup());

async function sessionOf(email: string) {
  const res = await callApi("/v1/signing/session", { token: await tokenFor(email) });
  expect(res.status).toBe(200);
  return SessionBody.parse(res.body);
}

describe("GET /v1/signing/session role matrix", () => {
  it("a signer holds only the signer capabilities", async () => {
    const s = await sessionOf("signer@demo.local");
    expect(s.user.email).toBe("signer@demo.local");
    expect(s.roles.map((r) => r.role)).toEqual(["signer"]);
    expect(s.capabilities).toEqual(["bank:link", "signer:esignatures:write", "signer:signings:read"]);
  });

  it("a co-signer is a signer too", async () => {
    const s = await sessionOf("cosigner@demo.local");
    expect(s.capabilities).not.toContain("signings:write");
    expect(s.capabilities).toContain("signer:signings:read");
  });

  it("a manager is scoped to their organization and may write signings", async () => {
    const s = await sessionOf("manager@demo.local");
    expect(s.roles).toEqual([
      expect.objectContaining({ role: "manager", scope: { type: "organization", organizationId: world.austin.organizationId } }),
    ]);
    expect(s.capabilities).toEqual(expect.arrayContaining(["signings:write", "locations:write", "templates:write", "flows:read"]));
    expect(s.capabilities).not.toContain("memberships:write");
  });

  it("a location-scoped manager carries the full location scope", async () => {
    const s = await sessionOf("branch@demo.local");
    expect(s.roles[0]!.scope).toEqual({
      type: "location",
      organizationId: world.austin.organizationId,
      companyId: world.austin.companyId,
      locationId: world.austin.id,
    });
  });

  it("an org admin can also manage members, settings and billing", async () => {
    const s = await sessionOf("owner@demo.local");
    expect(s.roles.map((r) => r.role)).toEqual(["org_admin"]);
    expect(s.capabilities).toEqual(expect.arrayContaining(["signings:write", "memberships:write", "settings:write", "billing:read"]));
  });

  it("an admin reads globally but writes nothing", async () => {
    const s = await sessionOf("admin@demo.local");
    expect(s.roles).toEqual([expect.objectContaining({ role: "admin", scope: { type: "global" } })]);
    expect(s.capabilities).toEqual(expect.arrayContaining(["signings:read", "organizations:read", "documents:read"]));
    expect(s.capabilities.filter((c) => c.endsWith(":write") && !c.startsWith("signer:"))).toEqual([]);
  });

  it("a manager of another organization sees only their own assignment", async () => {
    const s = await sessionOf("manager@other.local");
    expect(s.roles).toEqual([
      expect.objectContaining({ role: "manager", scope: { type: "organization", organizationId: world.tulsa.organizationId } }),
    ]);
  });

  it("never exposes password hashes or auth subjects", async () => {
    const res = await callApi("/v1/signing/session", { token: await tokenFor("manager@demo.local") });
    expect(res.text).not.toMatch(/scrypt|password|local\|/i);
  });
});
