import { and, desc, eq, inArray, ne, sql, type SQL } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  locations,
  organizations,
  packageSigners,
  signingPackages,
  type PackageSigner,
  type SigningStatus,
} from "@/db/schema";
import { hasCapability, type Principal } from "@/lib/auth/principal";
import { scopeFilter } from "@/lib/auth/scope-filter";

export type HomeSigning = {
  id: string;
  title: string;
  status: SigningStatus;
  organizationName: string;
  locationName: string;
  updatedAt: Date;
  signerCount: number;
  signedCount: number;
};

export type AssignedSigning = HomeSigning & {
  myStatus: PackageSigner["status"];
  myRole: PackageSigner["role"];
  /** A signer of a lower routing order has not signed yet, so it is not the user's turn. */
  waitingOnEarlier: boolean;
};

export type HomeSignings = {
  /** Packages on which the user is a signer. Drafts are left out: they have not been sent yet. */
  assigned: { items: AssignedSigning[]; truncated: boolean };
  /** Packages the user manages or may read; null when no role grants `signings:read`. */
  managed: { reach: "all" | "scoped"; items: HomeSigning[]; truncated: boolean } | null;
};

export type ListSigningsForHomeOptions = { principal: Principal; limit?: number };

const DEFAULT_LIMIT = 50;

const columns = {
  id: signingPackages.id,
  title: signingPackages.title,
  status: signingPackages.status,
  organizationName: organizations.name,
  locationName: locations.name,
  updatedAt: signingPackages.updatedAt,
};

/**
 * What the signed-in home page shows: the packages waiting on the user as a signer, and the
 * packages their manager (or admin) roles reach, through the same `scopeFilter` as `/v1`'s package
 * list (organization, company or location memberships). Admin reach is global and capped by ADMIN_READ_CAP.
 */
export async function listSigningsForHome(db: Db, options: ListSigningsForHomeOptions): Promise<HomeSignings> {
  const limit = options.limit ?? DEFAULT_LIMIT;

  const assignedRows = await db
    .select({
      ...columns,
      myStatus: packageSigners.status,
      myRole: packageSigners.role,
      waitingOnEarlier: sql<boolean>`exists (
        select 1 from package_signers earlier
        where earlier.package_id = ${packageSigners.packageId}
          and earlier.routing_order < ${packageSigners.routingOrder}
          and earlier.status <> 'signed')`,
    })
    .from(packageSigners)
    .innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId))
    .innerJoin(organizations, eq(organizations.id, signingPackages.organizationId))
    .innerJoin(locations, eq(locations.id, signingPackages.locationId))
    .where(and(eq(packageSigners.userId, options.principal.user.id), ne(signingPackages.status, "draft")))
    .orderBy(desc(signingPackages.updatedAt), desc(signingPackages.id))
    .limit(limit + 1);
  const assigned = assignedRows.slice(0, limit);

  let managedRows: Awaited<ReturnType<typeof selectManaged>> = [];
  let managedMeta: { reach: "all" | "scoped"; cap: number } | null = null;
  if (hasCapability(options.principal, "signings:read")) {
    const scope = scopeFilter(options.principal, "signings:read", signingPackages);
    const cap = scope.cap === null ? limit : Math.min(limit, scope.cap);
    managedRows = await selectManaged(db, scope.where, cap + 1);
    managedMeta = { reach: scope.cap === null ? "scoped" : "all", cap };
  }
  const managed = managedMeta ? managedRows.slice(0, managedMeta.cap) : [];

  const counts = await countSigners(db, [...new Set([...assigned, ...managed].map((r) => r.id))]);
  const withCounts = <T extends { id: string }>(row: T) => ({ ...row, ...(counts.get(row.id) ?? { signerCount: 0, signedCount: 0 }) });

  return {
    assigned: { items: assigned.map(withCounts), truncated: assignedRows.length > limit },
    managed: managedMeta
      ? { reach: managedMeta.reach, items: managed.map(withCounts), truncated: managedRows.length > managedMeta.cap }
      : null,
  };
}

function selectManaged(db: Db, where: SQL, limit: number) {
  return db
    .select(columns)
    .from(signingPackages)
    .innerJoin(organizations, eq(organizations.id, signingPackages.organizationId))
    .innerJoin(locations, eq(locations.id, signingPackages.locationId))
    .where(where)
    .orderBy(desc(signingPackages.updatedAt), desc(signingPackages.id))
    .limit(limit);
}

async function countSigners(db: Db, packageIds: string[]): Promise<Map<string, { signerCount: number; signedCount: number }>> {
  if (packageIds.length === 0) return new Map();
  const rows = await db
    .select({
      packageId: packageSigners.packageId,
      signerCount: sql<number>`count(*)::int`,
      signedCount: sql<number>`(count(*) filter (where ${packageSigners.status} = 'signed'))::int`,
    })
    .from(packageSigners)
    .where(inArray(packageSigners.packageId, packageIds))
    .groupBy(packageSigners.packageId);
  return new Map(rows.map((r) => [r.packageId, { signerCount: r.signerCount, signedCount: r.signedCount }]));
}
