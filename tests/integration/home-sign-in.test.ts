import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "@/db/schema";
import { listDemoAccounts } from "@/lib/seed/list-demo-accounts";
import { signInWithPassword } from "@/lib/sign-in/sign-in-with-password";
import { DEMO_PASSWORD, DEMO_USERS, seedDemo } from "@/lib/seed/seed-demo";
import { createTestDb, type TestDb } from "@/tests/helpers/db";

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});

afterAll(async () => {
  await testDb.cleanup();
});

describe("sign-in to the home page", () => {
  it("lists no demo accounts before the demo dataset is loaded", async () => {
    expect(await listDemoAccounts(testDb.db)).toEqual([]);
    await seedDemo(testDb.db);
    expect((await listDemoAccounts(testDb.db)).map((a) => a.email)).toEqual(DEMO_USERS.map((u) => u.email));
  });

  it("signs in with the right password (email case-insensitive) and records the time", async () => {
    const user = await signInWithPassword(testDb.db, { email: " Manager@Demo.LOCAL ", password: DEMO_PASSWORD });
    expect(user).toMatchObject({ email: "manager@demo.local", name: "Max Manager" });
    const [row] = await testDb.db.select().from(users).where(eq(users.id, user!.id));
    expect(row!.lastSignInAt).toBeInstanceOf(Date);
  });

  it("refuses a wrong password and an unknown email alike", async () => {
    expect(await signInWithPassword(testDb.db, { email: "manager@demo.local", password: "wrong" })).toBeNull();
    expect(await signInWithPassword(testDb.db, { email: "nobody@demo.local", password: DEMO_PASSWORD })).toBeNull();
  });

  it("refuses a deactivated user and stops listing them as a demo account", async () => {
    await testDb.db.update(users).set({ isActive: false }).where(eq(users.email, "cosigner@demo.local"));
    expect(await signInWithPassword(testDb.db, { email: "cosigner@demo.local", password: DEMO_PASSWORD })).toBeNull();
    expect((await listDemoAccounts(testDb.db)).map((a) => a.email)).not.toContain("cosigner@demo.local");
  });
});
