import { and, desc, eq, inArray, lt, ne, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, type PackageSigner, type SigningStatus } from "@/db/schema";
import { decodeCursor, toPage, type Page } from "@/lib/api/pagination";
import { requireCapability, type Principal } from "@/lib/auth/principal";

export type ListAssignedSigningsOptions = {
  principal: Principal;
  status?: Exclude<SigningStatus, "draft">;
  limit: number;
  cursor?: string;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export type AssignedSigningItem = ReturnType<typeof serialize>;

function serialize(
  p: typeof signingPackages.$inferSelect,
  me: { signerId: string; role: PackageSigner["role"]; routingOrder: number; status: PackageSigner["status"] },
) {
  return {
    id: p.id,
    organizationId: p.organizationId,
    title: p.title,
    status: p.status,
    sentAt: iso(p.sentAt),
    completedAt: iso(p.completedAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    me,
  };
}

/**
 * The packages on which the caller is a signer, newest first (UUIDv7 ids follow creation order),
 * keyset-paginated by id. Drafts are never listed: they have not been sent to anyone yet.
 */
export async function listAssignedSignings(db: Db, options: ListAssignedSigningsOptions): Promise<Page<AssignedSigningItem>> {
  requireCapability(options.principal, "signer:signings:read", "You do not have permission to read signing packages.");
  const conditions: SQL[] = [
    inArray(
      signingPackages.id,
      db.select({ id: packageSigners.packageId }).from(packageSigners).where(eq(packageSigners.userId, options.principal.user.id)),
    ),
    ne(signingPackages.status, "draft"),
  ];
  if (options.status) conditions.push(eq(signingPackages.status, options.status));
  if (options.cursor) {
    const [afterId] = decodeCursor(options.cursor, z.tuple([z.uuid()]));
    conditions.push(lt(signingPackages.id, afterId));
  }
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
  return toPage(
    rows,
    options.limit,
    (r) => [r.id],
    (r) => serialize(r, byPackage.get(r.id)!),
  );
}
