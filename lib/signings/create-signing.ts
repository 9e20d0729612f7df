import type { Db } from "@/db/client";
import { signingPackages, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { requireCapability } from "@/lib/auth/principal";
import { getLocationOrThrow } from "@/lib/locations/get-location-or-throw";
import { serializeSigning } from "./serialize-signing";

export type CreateSigningOptions = {
  principal: Principal;
  locationId: number;
  title?: string;
  message?: string;
  ipAddress?: string | null;
};

/** Creates a draft signing package at a location the caller manages, with its first audit entry. */
export async function createSigning(db: Db, options: CreateSigningOptions): Promise<SigningPackage> {
  requireCapability(options.principal, "signings:write", "You do not have permission to create signing packages.");
  return db.transaction(async (tx) => {
    const location = await getLocationOrThrow(tx, {
      principal: options.principal,
      locationId: options.locationId,
      capability: "signings:write",
    });
    const [created] = await tx
      .insert(signingPackages)
      .values({
        organizationId: location.organizationId,
        companyId: location.companyId,
        locationId: location.id,
        title: options.title ?? `Signing at ${location.name}`,
        message: options.message ?? null,
        createdByUserId: options.principal.user.id,
      })
      .returning();
    await recordAuditEntry(tx, {
      organizationId: location.organizationId,
      packageId: created!.id,
      actorUserId: options.principal.user.id,
      action: "signing.created",
      entityType: "signing_package",
      entityId: created!.id,
      ipAddress: options.ipAddress,
      after: serializeSigning(created!),
    });
    return created!;
  });
}
