import { eq, inArray } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { signingPackages } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { setEnvForTests } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { countSigningsByStatus } from "@/lib/signings/count-signings-by-status";
import { listSignerProgress } from "@/lib/signings/list-signer-progress";
import { listSignings, type ListSigningsOptions } from "@/lib/signings/list-signings";
import { createTestDb, type TestDb } from "@/tests/helpers/db";
import { as, BASE, loadManagerWorld } from "@/tests/helpers/manager";
import { createSignerPackage } from "@/tests/helpers/signing-fixtures";

// The console's package list (/signings) and GET /v1/signing/manager/signings share listSignings;
// the status tabs' counts come from countSigningsByStatus with the same scope and filters.
// Expected figures below are counted by hand from the demo data plus the packages made here:
//   demo seed: "Retail installment contract — Sam Signer" (Austin, sent), "Chattel loan — draft for
//   Dallas" (Dallas, draft), "Bill of sale — Pat Elsewhere" (Tulsa, other organization, draft),
//   "Promissory note — Pat Borrower (link only)" (Tulsa, other organization, sent).

let testDb: TestDb;
const ids: Record<string, string> = {};

beforeAll(async () => {
  testDb = await createTestDb();
  const world = await loadManagerWorld(testDb.db);
  const make = async (key: string, location: typeof world.austin, status: "draft" | "sent" | "completed" | "declined" | "cancelled" | "expired", signers: { email: string; routingOrder?: number }[] = [{ email: "riley@list.test" }]) => {
    ids[key] = (await createSignerPackage(testDb.db, { location, status, title: `LST ${key}`, signers })).id;
  };
  await make("austin-sent", world.austin, "sent", [
    { email: "riley@list.test", routingOrder: 1 },
    { email: "jordan@list.test", routingOrder: 2 },
  ]);
  await make("austin-completed", world.austin, "completed", [{ email: "kim@list.test" }]);
  await make("dallas-declined", world.dallas, "declined", [{ email: "kim@list.test" }]);
  await make("dallas-draft", world.dallas, "draft", [{ email: "kim@list.test" }]);
  await make("austin-cancelled", world.austin, "cancelled", [{ email: "kim@list.test" }]);
  await make("tulsa-expired", world.tulsa, "expired", [{ email: "riley@other.test" }]);
  // Two packages on either side of midnight UTC, for the date filter's day boundaries.
  await testDb.db.update(signingPackages).set({ createdAt: new Date("2026-01-15T23:59:59.999Z") }).where(eq(signingPackages.id, ids["austin-completed"]!));
  await testDb.db.update(signingPackages).set({ createdAt: new Date("2026-01-16T00:00:00.000Z") }).where(eq(signingPackages.id, ids["dallas-declined"]!));
});

afterAll(async () => {
  await testDb.cleanup();
});

afterEach(() => {
  setEnvForTests({});
});

const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));

async function titles(email: string, filters: Omit<ListSigningsOptions, "principal" | "limit"> = {}) {
  const page = await listSignings(testDb.db, { principal: await principalFor(email), limit: 100, ...filters });
  return page.rows.map((r) => r.title).sort();
}

async function counts(email: string, filters: Parameters<typeof countSigningsByStatus>[1] extends infer O ? Omit<O, "principal"> : never = {}) {
  return countSigningsByStatus(testDb.db, { principal: await principalFor(email), ...filters });
}

describe("countSigningsByStatus", () => {
  it("counts each status tab of an organization manager's packages, and All", async () => {
    expect(await counts("manager@demo.local")).toEqual({
      draft: 2,
      sent: 2,
      in_progress: 0,
      completed: 1,
      declined: 1,
      cancelled: 1,
      expired: 0,
      all: 7,
    });
  });

  it("follows the scope of each role: location, company, the other organization, admin", async () => {
    expect(await counts("branch@demo.local")).toMatchObject({ draft: 0, sent: 2, completed: 1, declined: 0, cancelled: 1, all: 4 });
    expect((await counts("company@demo.local")).all).toBe(7);
    expect(await counts("manager@other.local")).toMatchObject({ draft: 1, expired: 1, sent: 1, all: 3 });
    setEnvForTests({ ADMIN_READ_CAP: "3" });
    // The cap bounds the rows an admin pages through, not the totals.
    expect(await counts("admin@demo.local")).toMatchObject({ draft: 3, sent: 3, expired: 1, all: 10 });
  });

  it("applies the list's filters (all but the status) so a tab's count is what the tab lists", async () => {
    const manager = "manager@demo.local";
    expect(await counts(manager, { q: "lst" })).toMatchObject({ draft: 1, sent: 1, completed: 1, declined: 1, cancelled: 1, all: 5 });
    const dallas = (await loadIds()).dallas;
    expect(await counts(manager, { locationId: dallas })).toMatchObject({ draft: 2, declined: 1, all: 3 });
    expect((await titles(manager, { locationId: dallas, status: "draft" })).length).toBe(2);
    expect(await counts(manager, { createdTo: "2026-01-15" })).toMatchObject({ completed: 1, all: 1 });
  });

  it("refuses a person without signings:read", async () => {
    await expect(counts("signer@demo.local")).rejects.toMatchObject({ status: 403 });
  });
});

async function loadIds() {
  const rows = await testDb.db.select().from(signingPackages).where(inArray(signingPackages.id, [ids["dallas-draft"]!, ids["austin-sent"]!]));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return { dallas: byId.get(ids["dallas-draft"]!)!.locationId, austin: byId.get(ids["austin-sent"]!)!.locationId, company: byId.get(ids["austin-sent"]!)!.companyId };
}

describe("listSignings filters", () => {
  it("filters by status, location and company, and matches text in titles and signers' names", async () => {
    const m = "manager@demo.local";
    const { austin, company } = await loadIds();
    expect(await titles(m, { status: "sent" })).toEqual(["LST austin-sent", "Retail installment contract — Sam Signer"]);
    expect(await titles(m, { locationId: austin, q: "LST" })).toEqual(["LST austin-cancelled", "LST austin-completed", "LST austin-sent"]);
    expect((await titles(m, { companyId: company })).length).toBe(7);
    // "jordan" is only a signer's name (the second signer of austin-sent), never a title.
    expect(await titles(m, { q: "JORDAN" })).toEqual(["LST austin-sent"]);
    // % and _ are literal, not wildcards.
    expect(await titles(m, { q: "%" })).toEqual([]);
  });

  it("filters by creation day in UTC, both ends included", async () => {
    const m = "manager@demo.local";
    expect(await titles(m, { createdTo: "2026-01-15" })).toEqual(["LST austin-completed"]);
    expect(await titles(m, { createdFrom: "2026-01-16", createdTo: "2026-01-16" })).toEqual(["LST dallas-declined"]);
    expect(await titles(m, { createdFrom: "2026-01-16", q: "LST" })).not.toContain("LST austin-completed");
    expect(await titles(m, { createdFrom: "2026-01-16", q: "LST" })).toHaveLength(4);
  });

  it("keeps each role inside its scope", async () => {
    expect(await titles("branch@demo.local", { q: "LST" })).toEqual(["LST austin-cancelled", "LST austin-completed", "LST austin-sent"]);
    expect(await titles("manager@other.local")).toEqual(["Bill of sale — Pat Elsewhere", "LST tulsa-expired", "Promissory note — Pat Borrower (link only)"]);
    // A filter cannot widen the scope: the Dallas location is outside branch@'s Austin role.
    expect(await titles("branch@demo.local", { locationId: (await loadIds()).dallas })).toEqual([]);
    await expect(titles("signer@demo.local")).rejects.toBeInstanceOf(AppError);
  });

  it("returns each row with its location, company and organization names", async () => {
    const page = await listSignings(testDb.db, { principal: await principalFor("manager@demo.local"), limit: 100, q: "austin-sent" });
    expect(page.rows).toHaveLength(1);
    expect(page.rows[0]).toMatchObject({ locationName: "Austin Branch", companyName: "Demo Homes Finance", organizationName: "Demo Lending Co." });
  });
});

describe("listSignings keyset paging", () => {
  it("walks a filtered list newest first in pages, without repeating or skipping a package", async () => {
    const principal = await principalFor("manager@demo.local");
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await listSignings(testDb.db, { principal, limit: 2, q: "LST", cursor });
      seen.push(...page.rows.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    const expected = ["austin-sent", "austin-completed", "dallas-declined", "dallas-draft", "austin-cancelled"].map((k) => ids[k]!);
    // Made in this order, so newest first is the reverse.
    expect(seen).toEqual(expected.reverse());
  });

  it("stops an admin at the read cap however they page, and says so", async () => {
    setEnvForTests({ ADMIN_READ_CAP: "3" });
    const principal = await principalFor("admin@demo.local");
    const first = await listSignings(testDb.db, { principal, limit: 2 });
    expect(first.cap).toBe(3);
    expect(first.rows).toHaveLength(2);
    const second = await listSignings(testDb.db, { principal, limit: 2, cursor: first.nextCursor! });
    expect(second.rows).toHaveLength(1);
    expect(second.nextCursor).toBeNull();
  });

  it("refuses a forged cursor with a 400", async () => {
    const principal = await principalFor("manager@demo.local");
    await expect(listSignings(testDb.db, { principal, limit: 2, cursor: "eyJ4Ijox.forged" })).rejects.toMatchObject({ status: 400 });
  });
});

describe("listSignerProgress", () => {
  it("gives every package of a page its signers in routing order, with status and time", async () => {
    const progress = await listSignerProgress(testDb.db, { packageIds: [ids["austin-sent"]!, ids["dallas-draft"]!, ids["austin-completed"]!] });
    const sent = progress.get(ids["austin-sent"]!)!;
    expect(sent.map((s) => [s.name, s.routingOrder, s.status])).toEqual([
      ["riley", 1, "notified"],
      ["jordan", 2, "pending"],
    ]);
    expect(sent[0]!.notifiedAt).toBeInstanceOf(Date);
    expect(sent[1]!.notifiedAt).toBeNull();
    expect(progress.get(ids["dallas-draft"]!)!.map((s) => s.status)).toEqual(["pending"]);
    expect(progress.get(ids["austin-completed"]!)).toHaveLength(1);
    expect((await listSignerProgress(testDb.db, { packageIds: [] })).size).toBe(0);
  });
});

describe("GET /v1/signing/manager/signings date filters", () => {
  it("filters by createdFrom/createdTo and answers 400 for a malformed date", async () => {
    const ok = await as("manager@demo.local", `${BASE}/signings?createdTo=2026-01-15`);
    expect(ok.status).toBe(200);
    expect((ok.body as { data: { title: string }[] }).data.map((d) => d.title)).toEqual(["LST austin-completed"]);
    const bad = await as("manager@demo.local", `${BASE}/signings?createdFrom=15-01-2026`);
    expect(bad.status).toBe(400);
  });
});
