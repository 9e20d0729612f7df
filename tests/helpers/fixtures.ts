import { eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, locations, memberships, signingPackages, users, type NewMembership } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { seedDemo } from "@/lib/seed/seed-demo";

export type DemoWorld = Awaited<ReturnType<typeof loadDemoWorld>>;

/** Seeds the README's demo dataset and returns the ids tests refer to by name. */
export async function loadDemoWorld(db: Db) {
  await seedDemo(db);
  const all = await db.select().from(locations);
  const byName = (name: string) => {
    const found = all.find((l) => l.name === name);
    if (!found) throw new Error(`no location ${name}`);
    return found;
  };
  return { austin: byName("Austin Branch"), dallas: byName("Dallas Branch"), tulsa: byName("Tulsa Office") };
}

/** A local user with the given role assignments, for scope cases the demo data doesn't cover. */
export async function createUser(db: Db, email: string, assignments: Omit<NewMembership, "userId">[] = []) {
  const [user] = await db
    .insert(users)
    .values({ email, name: email.split("@")[0]!, authProvider: "local", authSubject: localSubjectForEmail(email) })
    .returning();
  if (assignments.length > 0) await db.insert(memberships).values(assignments.map((a) => ({ ...a, userId: user!.id })));
  return user!;
}

export async function countPackages(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(signingPackages);
  return row!.n;
}

export async function auditEntriesFor(db: Db, packageId: string) {
  return db.select().from(auditLog).where(eq(auditLog.packageId, packageId)).orderBy(auditLog.id);
}
