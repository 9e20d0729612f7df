import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { users, type SigningPackage, type User } from "@/db/schema";

/** The user who created the package (told when it expires, is declined or completes), if still known. */
export async function getSigningCreator(
  db: Db,
  signing: Pick<SigningPackage, "createdByUserId">,
): Promise<Pick<User, "id" | "email" | "name"> | undefined> {
  if (!signing.createdByUserId) return undefined;
  const [creator] = await db.select({ id: users.id, email: users.email, name: users.name }).from(users).where(eq(users.id, signing.createdByUserId));
  return creator;
}
