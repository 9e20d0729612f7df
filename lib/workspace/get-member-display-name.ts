import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users } from "@/db/schema";
import { memberDisplayNameSql } from "./member-display-name-sql";

/** The name `organizationId` may show for the user (see `memberDisplayNameSql`); empty for an unknown user. */
export async function getMemberDisplayName(db: Db, options: { userId: string; organizationId: number }): Promise<string> {
  const [row] = await db
    .select({ name: memberDisplayNameSql(options.organizationId) })
    .from(users)
    .where(eq(users.id, options.userId))
    .limit(1);
  return row?.name ?? "";
}
