import { and, desc, eq, inArray, lt, ne, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type PackageSigner, type SigningPackage, type SigningStatus } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { cursorBinding, decodeKeyCursor } from "@/lib/pagination/keyset-cursor";
import { toKeysetPage, type KeysetPage } from "@/lib/pagination/keyset-page";

export type ListAssignedSigningsOptions = {
  principal: Principal;
  status?: Exclude<SigningStatus, "draft">;
  limit: number;
  cursor?: string;
};

/** The caller's own signer row on a package (the lowest routing order when they hold two). */
export type MySignerRow = { signerId: string; role: PackageSigner["role"]; routingOrder: number; status: PackageSigner["status"] };

export type AssignedSigning = SigningPackage & { me: MySignerRow };

/**
 * The packages on which the caller is a signer, newest first (UUIDv7 ids follow creation order),
 * keyset-paginated by id. Drafts are never listed: they have not been sent to anyone yet.
 */
export async function listAssignedSignings(db: Db, options: ListAssignedSigningsOptions): Promise<KeysetPage<AssignedSigning>> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const conditions: SQL[] = [
    inArray(
      signingPackages.id,
      db.select({ id: packageSigners.packageId }).from(packageSigners).where(eq(packageSigners.userId, options.principal.user.id)),
    ),
    ne(signingPackages.status, "draft"),
  ];
  if (options.status) conditions.push(eq(signingPackages.status, options.status));
  const binding = cursorBinding("assigned-signings", options);
  const afterId = decodeKeyCursor(options.cursor, z.uuid(), binding);
  if (afterId !== null) conditions.push(lt(signingPackages.id, afterId));
  const rows = await db
    .select()
    .from(signingPackages)
    .where(and(...conditions))
    .orderBy(desc(signingPackages.id))
    .limit(options.limit + 1);

  const mine = rows.length
    ? await db
        .select({
          packageId: packageSigners.packageId,
          signerId: packageSigners.id,
          role: packageSigners.role,
          routingOrder: packageSigners.routingOrder,
          status: packageSigners.status,
        })
        .from(packageSigners)
        .where(and(eq(packageSigners.userId, options.principal.user.id), inArray(packageSigners.packageId, rows.map((r) => r.id))))
        .orderBy(desc(packageSigners.routingOrder), desc(packageSigners.id))
    : [];
  // Ordered so the lowest routing order wins when one user holds two signer rows on a package.
  const byPackage = new Map(mine.map(({ packageId, ...me }) => [packageId, me]));
  const page = toKeysetPage(rows, options.limit, (r) => [r.id], binding);
  return { ...page, rows: page.rows.map((r) => ({ ...r, me: byPackage.get(r.id)! })) };
}
