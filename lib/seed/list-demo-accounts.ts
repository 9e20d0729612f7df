import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { DEMO_PASSWORD, DEMO_USERS } from "@/lib/seed/seed-demo";

export type DemoAccount = { email: string; name: string; role: string; password: string };

/**
 * The demo accounts that exist and are active in this database, for the sign-in page's
 * "sign in as" list. Whether the list shows is decided by the data, not by NODE_ENV: the demo
 * password is published in the repository, so when these accounts exist anyone can use them
 * anyway, and listing them hides nothing. An empty list (no demo data, or the accounts were
 * deactivated) hides the panel, in development and production alike.
 */
export async function listDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const rows = await db
    .select({ email: users.email, name: users.name })
    .from(users)
    .where(and(inArray(users.email, DEMO_USERS.map((u) => u.email)), eq(users.isActive, true)));
  const present = new Map(rows.map((r) => [r.email, r]));
  return DEMO_USERS.filter((u) => present.has(u.email)).map((u) => ({
    email: u.email,
    name: present.get(u.email)!.name,
    role: u.role,
    password: DEMO_PASSWORD,
  }));
}
