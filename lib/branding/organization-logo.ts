import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizationLogos, organizations, type OrganizationLogo } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import type { Principal } from "@/lib/auth/principal";
import { NotFound } from "@/lib/errors";
import { putStoredFile, readStoredFile, releaseStoredFiles } from "@/lib/storage/stored-files";
import { resolveOrganizationId } from "@/lib/auth/resolve-organization-id";
import { inspectLogo } from "./inspect-logo";

export type LogoJson = { url: string; contentType: string; sizeBytes: number; width: number; height: number };

/**
 * Where the logo is served, on our origin. The version (a prefix of the SHA-256) changes with the
 * bytes, so the response can be cached for good and a new upload shows at once.
 */
export function logoPath(logo: Pick<OrganizationLogo, "organizationId" | "sha256">): string {
  return `/branding/${logo.organizationId}/logo?v=${logo.sha256.slice(0, 16)}`;
}

export function serializeLogo(logo: OrganizationLogo): LogoJson {
  return { url: logoPath(logo), contentType: logo.contentType, sizeBytes: logo.sizeBytes, width: logo.width, height: logo.height };
}

/**
 * Replaces the organization's logo (org admins: `settings:write`). The bytes are checked first (PNG or
 * JPEG, size and sides); a refused file changes nothing. The bytes are the object of their SHA-256
 * (one object for the same image, whoever uploads it); the old logo's object is removed after the new
 * row is committed, unless something else still refers to it.
 */
export async function setOrganizationLogo(
  db: Db,
  options: { principal: Principal; organizationId?: number; bytes: Uint8Array; ipAddress?: string | null },
): Promise<LogoJson> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change workspace settings.",
  });
  const image = inspectLogo(options.bytes);
  const { logo, previous } = await db.transaction(async (tx) => {
    const [organization] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, organizationId)).for("update");
    if (!organization) throw NotFound(`Organization ${organizationId} not found.`);
    const stored = await putStoredFile(tx, { bytes: options.bytes, contentType: image.contentType });
    const [previous] = await tx.select().from(organizationLogos).where(eq(organizationLogos.organizationId, organizationId));
    const values = {
      organizationId,
      ...image,
      ...stored,
      uploadedByUserId: options.principal.user.id,
      createdAt: new Date(),
    };
    const [logo] = await tx
      .insert(organizationLogos)
      .values(values)
      .onConflictDoUpdate({ target: organizationLogos.organizationId, set: values })
      .returning();
    await recordAuditEntry(tx, {
      organizationId,
      actorUserId: options.principal.user.id,
      action: "settings.logo_uploaded",
      entityType: "organization",
      entityId: String(organizationId),
      ipAddress: options.ipAddress,
      before: previous ? serializeLogo(previous) : null,
      after: serializeLogo(logo!),
    });
    return { logo: logo!, previous };
  });
  // The same bytes keep the same key: removing the "old" object would remove the new one.
  if (previous && previous.storageKey !== logo.storageKey) await releaseStoredFiles(db, [previous]);
  return serializeLogo(logo);
}

/** Removes the uploaded logo; pages and the certificate then show the display name alone. */
export async function removeOrganizationLogo(
  db: Db,
  options: { principal: Principal; organizationId?: number; ipAddress?: string | null },
): Promise<void> {
  const organizationId = resolveOrganizationId(options.principal, {
    capability: "settings:write",
    organizationId: options.organizationId,
    forbidden: "You do not have permission to change workspace settings.",
  });
  const removed = await db.transaction(async (tx) => {
    const [removed] = await tx.delete(organizationLogos).where(eq(organizationLogos.organizationId, organizationId)).returning();
    if (removed) {
      await recordAuditEntry(tx, {
        organizationId,
        actorUserId: options.principal.user.id,
        action: "settings.logo_removed",
        entityType: "organization",
        entityId: String(organizationId),
        ipAddress: options.ipAddress,
        before: serializeLogo(removed),
        after: null,
      });
    }
    return removed;
  });
  if (removed) await releaseStoredFiles(db, [removed]);
}

export async function findOrganizationLogo(db: Db, organizationId: number): Promise<OrganizationLogo | undefined> {
  const [logo] = await db.select().from(organizationLogos).where(eq(organizationLogos.organizationId, organizationId));
  return logo;
}

/** The logo's bytes for the public `/branding/<id>/logo` route, or undefined when there is none. */
export async function readOrganizationLogo(db: Db, organizationId: number): Promise<{ logo: OrganizationLogo; bytes: Uint8Array } | undefined> {
  const logo = await findOrganizationLogo(db, organizationId);
  if (!logo) return undefined;
  return { logo, bytes: await readStoredFile(db, logo) };
}
