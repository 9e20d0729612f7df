import { eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { locations, memberships, packageSigners, signingPackages, users } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { seedDemo } from "@/lib/seed/seed-demo";
import { listSigningsForHome } from "@/lib/signings/list-signings-for-home";
import { callApi, tokenFor } from "@/tests/helpers/api";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

const SENT = "Retail installment contract — Sam Signer";
const DRAFT = "Chattel loan — draft for Dallas";
const OTHER = "Bill of sale — Pat Elsewhere";
const LINK_ONLY = "Promissory note — Pat Borrower (link only)";

let testDb: TestDb;
let demo: { organizationId: number; otherOrganizationId: number };

beforeAll(async () => {
  testDb = await createTestDb();
  demo = await seedDemo(testDb.db);
});

afterAll(async () => {
  await testDb.cleanup();
});

afterEach(() => {
  setEnvForTests({});
});

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

async function homeFor(email: string, limit?: number) {
  return listSigningsForHome(testDb.db, { principal: await principalFor(email), limit });
}

/** A user with one manager membership at the given scope. */
async function managerAt(email: string, scope: { companyId?: number; locationId?: number }) {
  const [user] = await testDb.db.insert(users).values({ email, name: email, authSubject: localSubjectForEmail(email) }).returning();
  await testDb.db.insert(memberships).values({ userId: user!.id, role: "manager", organizationId: demo.organizationId, ...scope });
  return user!;
}

describe("listSigningsForHome", () => {
  it("shows an organization manager both of the organization's packages and none of another's", async () => {
    const home = await homeFor("manager@demo.local");
    expect(home.managed?.reach).toBe("scoped");
    expect(home.managed?.items.map((s) => s.title).sort()).toEqual([DRAFT, SENT].sort());
    expect(home.managed?.items.find((s) => s.title === SENT)).toMatchObject({
      status: "sent",
      organizationName: "Demo Lending Co.",
      locationName: "Austin Branch",
      signerCount: 2,
      signedCount: 0,
    });
    expect(home.assigned.items).toEqual([]);

    const other = await homeFor("manager@other.local");
    expect(other.managed?.items.map((s) => s.title).sort()).toEqual([OTHER, LINK_ONLY].sort());
  });

  it("shows a signer only the sent package they sign, with their own status, and no manager list", async () => {
    const home = await homeFor("signer@demo.local");
    expect(home.managed).toBeNull();
    expect(home.assigned.items).toHaveLength(1);
    expect(home.assigned.items[0]).toMatchObject({ title: SENT, status: "sent", myStatus: "notified", myRole: "signer" });

    const cosigner = await homeFor("cosigner@demo.local");
    expect(cosigner.assigned.items[0]).toMatchObject({ title: SENT, myRole: "co_signer" });
  });

  it("leaves drafts out of a signer's list until they are sent", async () => {
    const [draft] = await testDb.db.select().from(signingPackages).where(eq(signingPackages.title, DRAFT));
    const [signer] = await testDb.db.select().from(users).where(eq(users.email, "signer@demo.local"));
    await testDb.db.insert(packageSigners).values({ packageId: draft!.id, userId: signer!.id, name: signer!.name, email: signer!.email });
    expect((await homeFor("signer@demo.local")).assigned.items.map((s) => s.title)).toEqual([SENT]);
  });

  it("narrows a location manager to the location and a company manager to the company", async () => {
    const [dallas] = await testDb.db.select().from(locations).where(eq(locations.name, "Dallas Branch"));
    await managerAt("dallas-manager@demo.local", { companyId: dallas!.companyId, locationId: dallas!.id });
    await managerAt("company-manager@demo.local", { companyId: dallas!.companyId });

    const dallasHome = await homeFor("dallas-manager@demo.local");
    expect(dallasHome.managed?.items.map((s) => s.title)).toEqual([DRAFT]);
    const companyHome = await homeFor("company-manager@demo.local");
    expect(companyHome.managed?.items.map((s) => s.title).sort()).toEqual([DRAFT, SENT].sort());
  });

  it("shows an admin every organization's packages, capped by ADMIN_READ_CAP", async () => {
    const home = await homeFor("admin@demo.local");
    expect(home.managed?.reach).toBe("all");
    expect(home.managed?.items.map((s) => s.title).sort()).toEqual([DRAFT, LINK_ONLY, OTHER, SENT].sort());
    expect(home.managed?.truncated).toBe(false);

    setEnvForTests({ ADMIN_READ_CAP: "2" });
    const capped = await homeFor("admin@demo.local");
    expect(capped.managed?.items).toHaveLength(2);
    expect(capped.managed?.truncated).toBe(true);
  });

  it("reports truncation when a manager has more packages than the limit", async () => {
    const home = await homeFor("manager@demo.local", 1);
    expect(home.managed?.items).toHaveLength(1);
    expect(home.managed?.truncated).toBe(true);
  });

  it("lists, for every role and scope, exactly the packages GET /v1/signing/manager/signings lists", async () => {
    const [austin] = await testDb.db.select().from(locations).where(eq(locations.name, "Austin Branch"));
    await managerAt("austin-manager@demo.local", { companyId: austin!.companyId, locationId: austin!.id });
    const emails = ["admin@demo.local", "manager@demo.local", "manager@other.local", "austin-manager@demo.local", "signer@demo.local"];
    for (const email of emails) {
      const home = await homeFor(email);
      const api = await callApi("/v1/signing/manager/signings?limit=100", { token: await tokenFor(email) });
      if (api.status === 403) {
        expect(home.managed, email).toBeNull();
        continue;
      }
      expect(api.status, email).toBe(200);
      const apiIds = (api.body as { data: { id: string }[] }).data.map((s) => s.id).sort();
      expect(home.managed?.items.map((s) => s.id).sort(), email).toEqual(apiIds);
      expect(apiIds.length, email).toBeGreaterThan(0);
    }
  });
});
