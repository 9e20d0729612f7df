import { and, count, eq, inArray } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, packageSigners, type AttachmentRequest, type SigningPackage } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { AttachmentRequestInputSchema, AttachmentRequestListSchema, type AttachmentRequestInput } from "./attachment-request-schema";
import { MAX_REQUESTS_PER_SIGNER } from "./limits";

const issuesOf = (error: { issues: { path: PropertyKey[]; message: string }[] }) =>
  error.issues.map((i) => `${i.path.map(String).join(".") || "body"}: ${i.message}`).join("; ");

/**
 * Inserts requests for signers of `signing` inside the caller's transaction (package creation, or a
 * manager's later request): each checked, at most 20 per signer counting those it already has, and
 * each audited as `attachment.requested`.
 */
export async function insertAttachmentRequests(
  tx: Db,
  options: { signing: SigningPackage; actorUserId: string | null; ipAddress?: string | null; requests: { signerId: string; request: AttachmentRequestInput }[] },
): Promise<AttachmentRequest[]> {
  if (options.requests.length === 0) return [];
  const parsed = options.requests.map(({ signerId, request }) => {
    const result = AttachmentRequestInputSchema.safeParse(request);
    if (!result.success) throw BadRequest(`attachments: ${issuesOf(result.error)}`);
    return { signerId, request: result.data };
  });
  const signerIds = [...new Set(parsed.map((p) => p.signerId))];
  const existing = await tx
    .select({ signerId: attachmentRequests.signerId, n: count() })
    .from(attachmentRequests)
    .where(and(eq(attachmentRequests.packageId, options.signing.id), inArray(attachmentRequests.signerId, signerIds)))
    .groupBy(attachmentRequests.signerId);
  for (const signerId of signerIds) {
    const total = (existing.find((e) => e.signerId === signerId)?.n ?? 0) + parsed.filter((p) => p.signerId === signerId).length;
    if (total > MAX_REQUESTS_PER_SIGNER) throw BadRequest(`A signer may be asked for at most ${MAX_REQUESTS_PER_SIGNER} attachments.`);
  }
  const rows = await tx
    .insert(attachmentRequests)
    .values(
      parsed.map((p, i) => ({
        packageId: options.signing.id,
        signerId: p.signerId,
        name: p.request.name,
        description: p.request.description || null,
        required: p.request.required,
        position: (existing.find((e) => e.signerId === p.signerId)?.n ?? 0) + i,
      })),
    )
    .returning();
  for (const row of rows) {
    await recordAuditEntry(tx, {
      organizationId: options.signing.organizationId,
      packageId: options.signing.id,
      actorUserId: options.actorUserId,
      action: "attachment.requested",
      entityType: "attachment_request",
      entityId: row.id,
      ipAddress: options.ipAddress,
      after: { signerId: row.signerId, name: row.name, description: row.description, required: row.required },
    });
  }
  return rows;
}

/**
 * A manager asks one signer of a draft or open package for more attachments. 404 outside the
 * manager's scope or for a signer not on the package; 409 on a closed package or a signer who declined.
 */
export async function addAttachmentRequests(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; requests: AttachmentRequestInput[]; ipAddress?: string | null },
): Promise<AttachmentRequest[]> {
  requireCapability(options.principal, "signings:write", "You do not have permission to ask signers for attachments.");
  const list = AttachmentRequestListSchema.safeParse(options.requests);
  if (!list.success) throw BadRequest(`attachments: ${issuesOf(list.error)}`);
  if (list.data.length === 0) throw BadRequest("attachments: name at least one attachment to ask for.");
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
    if (signing.status !== "draft" && !isOpenSigningStatus(signing.status)) {
      throw Conflict(`This package is ${signingStatusLabel(signing.status)}; its signers can no longer be asked for attachments.`, "package_closed");
    }
    const [signer] = isUuid(options.signerId)
      ? await tx.select().from(packageSigners).where(and(eq(packageSigners.id, options.signerId), eq(packageSigners.packageId, signing.id)))
      : [];
    if (!signer) throw NotFound("That signer is not on this package.");
    if (signer.status === "declined") throw Conflict(`${signer.name} has declined this package.`, "already_declined");
    return insertAttachmentRequests(tx, {
      signing,
      actorUserId: options.principal.user.id,
      ipAddress: options.ipAddress,
      requests: list.data.map((request) => ({ signerId: signer.id, request })),
    });
  });
}

/**
 * A draft's signer's requests brought to the form's list: unchanged when they are the same (name,
 * description, required, in order); otherwise the old ones are withdrawn (a draft's requests have no
 * files yet) and the new ones inserted, each audited.
 */
export async function replaceDraftAttachmentRequests(
  tx: Db,
  options: { signing: SigningPackage; signerId: string; requests: AttachmentRequestInput[]; actorUserId: string; ipAddress?: string | null },
): Promise<void> {
  const list = AttachmentRequestListSchema.safeParse(options.requests);
  if (!list.success) throw BadRequest(`attachments: ${issuesOf(list.error)}`);
  const current = await tx
    .select()
    .from(attachmentRequests)
    .where(and(eq(attachmentRequests.packageId, options.signing.id), eq(attachmentRequests.signerId, options.signerId)))
    .orderBy(attachmentRequests.position, attachmentRequests.createdAt);
  const key = (r: { name: string; description?: string | null; required: boolean }) => JSON.stringify([r.name, r.description || null, r.required]);
  if (current.map(key).join("\n") === list.data.map(key).join("\n")) return;
  for (const row of current) {
    await tx.delete(attachmentRequests).where(eq(attachmentRequests.id, row.id));
    await recordAuditEntry(tx, {
      organizationId: options.signing.organizationId,
      packageId: options.signing.id,
      actorUserId: options.actorUserId,
      action: "attachment.request_removed",
      entityType: "attachment_request",
      entityId: row.id,
      ipAddress: options.ipAddress,
      before: { signerId: row.signerId, name: row.name },
    });
  }
  await insertAttachmentRequests(tx, {
    signing: options.signing,
    actorUserId: options.actorUserId,
    ipAddress: options.ipAddress,
    requests: list.data.map((request) => ({ signerId: options.signerId, request })),
  });
}
