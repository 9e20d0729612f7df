import { createHash } from "node:crypto";
import { and, eq, getTableColumns, lt, ne, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  eSignatures,
  packageSigners,
  signatureRequests,
  type ESignature,
  type PackageDocument,
  type PackageSigner,
  type SigningPackage,
  embeddedSigningTokens,
} from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { completePackageIfDone } from "@/lib/package-lifecycle/complete-package-if-done";
import { esignNotOpenMessage, notESignedMessage } from "./execution-messages";
import { transitionDocument } from "@/lib/package-lifecycle/transition-document";
import { actorUserIdOf } from "@/lib/signer-access/signer-session-principal";
import { getEnv } from "@/lib/env";
import { BadRequest, Conflict, NotFound } from "@/lib/errors";
import { fillSignerFields, type FieldValueInput } from "@/lib/fields/fill-signer-fields";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { getDocumentOrThrow } from "@/lib/packages/get-document-or-throw";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { notifyNextRoutingGroup } from "@/lib/package-lifecycle/notify-next-routing-group";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";
import { deliverVaultEventDeclaration, vaultJobKey } from "@/lib/vault/deliver-vault-event-payload";
import type { VaultEvent } from "@/lib/vault/vault-event";
import { parsePngDataUrl } from "@/lib/signature-images/parse-png-data-url";
import { SIGNATURE_FONTS } from "@/lib/signature-images/signature-fonts";

export type SignatureInput = { kind: "drawn"; imageDataUrl: string } | { kind: "typed"; text: string; font: string };

export type RecordESignatureOptions = {
  principal: Principal;
  packageId: string;
  documentId: string;
  signature: SignatureInput;
  /** Explicit consent to sign electronically; anything but `true` is refused. */
  consent: boolean;
  /** The SHA-256 of the document the signer viewed; must equal the stored one. */
  documentSha256?: string;
  idempotencyKey?: string;
  /** Values of the signer's fields on this document (text, checkbox, initials); see `fillSignerFields`. */
  fields?: readonly FieldValueInput[];
  ipAddress?: string | null;
  userAgent?: string | null;
};

/** The 409 messages of a changed document and of a signer out of turn (reasons `document_changed`, `out_of_turn`). */
export const DOCUMENT_CHANGED_MESSAGE = "The document changed since you viewed it. Reload it and review it again before signing.";
export const OUT_OF_TURN_MESSAGE = "Signers earlier in the routing order have not signed yet.";

export type RecordESignatureResult = { eSignature: ESignature; created: boolean };

/**
 * Records the caller's e-signature on one document of a package and moves everything it completes:
 * the signature request, the signer (when all their required requests are signed), the next
 * routing group (notified when the current one is complete), the package (`sent → in_progress` on
 * the first signature, `→ completed` on the last required one) — one transaction, with audit
 * entries and the vault event enqueued as an outbox row.
 *
 * Concurrency: the package row is locked (`FOR UPDATE`) before anything is read, so signatures on
 * one package are applied one at a time and the completion is seen, and written, exactly once. A
 * retry (same request, or the same `Idempotency-Key`) returns the existing record with
 * `created: false`; the unique indexes on `e_signatures` back this up.
 */
export async function recordESignature(db: Db, options: RecordESignatureOptions): Promise<RecordESignatureResult> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to record e-signatures.");
  if (options.consent !== true) throw BadRequest("consent: explicit consent to sign electronically is required.", "consent_required");
  const evidence = signatureEvidence(options.signature);
  // A link signer without an account has no user: the record names the signer (and its session's proof).
  const userId = actorUserIdOf(options.principal);

  return db.transaction(async (tx) => {
    const { signing, signer } = await getSignerAssignmentOrThrow(tx, { ...options, lock: true, includeDrafts: true });
    // A draft has no signature requests yet (they are created when it is sent): say why, not "404".
    if (signing.status === "draft") throw Conflict("This signing package has not been sent yet.");
    const document = await getDocumentOrThrow(tx, { packageId: signing.id, documentId: options.documentId }, (t) => getTableColumns(t));
    if (document.executionMode !== "esign") throw Conflict(notESignedMessage(document.executionMode));
    const [request] = await tx
      .select()
      .from(signatureRequests)
      .where(and(eq(signatureRequests.documentId, document.id), eq(signatureRequests.signerId, signer.id)))
      .limit(1);
    if (!request) throw NotFound(`You have no signature request on document ${document.id}.`);

    const replay = await findExisting(tx, { userId, requestId: request.id, idempotencyKey: options.idempotencyKey });
    if (replay) return { eSignature: replay, created: false };

    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; it can no longer be signed.`, "package_closed");
    }
    if (signing.expiresAt && signing.expiresAt.getTime() <= Date.now()) {
      // The expiry sweep may not have run yet; the deadline still applies.
      throw Conflict("This signing package has expired; it can no longer be signed.", "package_closed");
    }
    if (signing.esignOpensAt && signing.esignOpensAt.getTime() > Date.now()) throw Conflict(esignNotOpenMessage(signing.esignOpensAt));
    if (signer.status === "declined") throw Conflict("You have declined this signing package.", "already_declined");
    if (options.documentSha256 !== undefined && options.documentSha256.toLowerCase() !== document.sha256) {
      throw Conflict(DOCUMENT_CHANGED_MESSAGE, "document_changed");
    }
    if ((await countUnsigned(tx, signing.id, lt(packageSigners.routingOrder, signer.routingOrder))) > 0) {
      throw Conflict(OUT_OF_TURN_MESSAGE, "out_of_turn");
    }

    const [inserted] = await tx
      .insert(eSignatures)
      .values({
        signatureRequestId: request.id,
        packageId: signing.id,
        documentId: document.id,
        signerId: signer.id,
        authUserId: userId,
        kind: options.signature.kind,
        imageDataUrl: options.signature.kind === "drawn" ? options.signature.imageDataUrl : null,
        typedText: options.signature.kind === "typed" ? options.signature.text : null,
        typedFont: options.signature.kind === "typed" ? options.signature.font : null,
        consentGiven: true,
        documentSha256: document.sha256,
        ipAddress: options.ipAddress ?? null,
        userAgent: options.userAgent ?? null,
        idempotencyKey: options.idempotencyKey ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) {
      // Only reachable when the same Idempotency-Key raced on two packages (two different locks).
      const existing = await findExisting(tx, { userId, requestId: request.id, idempotencyKey: options.idempotencyKey });
      if (existing) return { eSignature: existing, created: false };
      throw Conflict("This Idempotency-Key was already used for another e-signature.");
    }

    const now = inserted.createdAt;
    // The one consent record: a signer who consented here (/v1's `consent: true`) without the
    // browser's consent step has it on the signer row too, which the certificate reads.
    if (!signer.consentedAt) await tx.update(packageSigners).set({ consentedAt: now, consentSource: "api" }).where(eq(packageSigners.id, signer.id));
    if (!signer.authPassedMethod && !options.principal.signerSession) {
      await tx.update(packageSigners).set({ authPassedAt: now, authPassedMethod: "account" }).where(eq(packageSigners.id, signer.id));
    }
    // Throws (rolling the signature back) when a required field is left unfilled.
    const filledFields = await fillSignerFields(tx, { documentId: document.id, signer, values: options.fields ?? [], signedAt: now });
    await tx.update(signatureRequests).set({ status: "signed", signedAt: now }).where(eq(signatureRequests.id, request.id));
    const audit = { organizationId: signing.organizationId, packageId: signing.id, actorUserId: userId, ipAddress: options.ipAddress };
    // A signer session opened from an embedded signing URL: the entry names that session (the lender's site framed the signing).
    const sessionId = options.principal.signerSession?.sessionId;
    const [embedded] = sessionId
      ? await tx.select({ id: embeddedSigningTokens.id }).from(embeddedSigningTokens).where(and(eq(embeddedSigningTokens.signerId, signer.id), eq(embeddedSigningTokens.sessionId, sessionId))).limit(1)
      : [];
    await recordAuditEntry(tx, {
      ...audit,
      action: "esignature.recorded",
      entityType: "e_signature",
      entityId: inserted.id,
      after: {
        signatureRequestId: request.id,
        documentId: document.id,
        signerId: signer.id,
        documentSha256: document.sha256,
        consentGiven: true,
        // How the signer proved who they are: the signer session's method, else their account.
        authMethod: options.principal.signerSession?.method ?? "account",
        ...(embedded ? { embeddedSession: { sessionId, embeddedUrlId: embedded.id } } : {}),
        userAgent: inserted.userAgent,
        ...evidence,
        ...(filledFields.length > 0 ? { fields: filledFields.map((f) => ({ id: f.id, type: f.type, value: f.value })) } : {}),
      },
    });

    await completeSigner(tx, { signer, now, audit });
    await markDocumentESignedIfDone(tx, { document, audit });
    await advancePackage(tx, { signing, signer, now, audit });

    if (getEnv().VAULT_WEBHOOK_URL) {
      const event: VaultEvent = {
        type: "signer_document_signed",
        signingOrganizationId: String(signing.organizationId),
        signingId: signing.id,
        documentId: document.id,
        // The vault's six fields stay: a link signer without an account is named by the signer id.
        authUserId: userId ?? signer.id,
        // A new record is always the signer's first on this document: one signature request per
        // signer × document (unique index) and one e-signature per request (unique index); a retry
        // returned `created: false` above and enqueues nothing.
        firstESign: true,
      };
      await enqueueJob(tx, deliverVaultEventDeclaration, { eSignatureId: inserted.id, event, attempt: 1 }, { idempotencyKey: vaultJobKey(inserted.id, 1) });
    }
    return { eSignature: inserted, created: true };
  });
}

type AuditBase = { organizationId: number; packageId: string; actorUserId: string | null; ipAddress?: string | null };

/** What the audit trail keeps of the signature itself: the typed text, or the drawn image's hash. */
function signatureEvidence(signature: SignatureInput): Record<string, string> {
  if (signature.kind === "typed") {
    const text = signature.text.trim();
    if (text.length === 0 || text.length > 200) throw BadRequest("text: must be 1 to 200 characters.");
    if (!(SIGNATURE_FONTS as readonly string[]).includes(signature.font)) {
      throw BadRequest(`font: must be one of ${SIGNATURE_FONTS.join(", ")}.`);
    }
    return { kind: "typed", typedText: text, typedFont: signature.font };
  }
  const png = parsePngDataUrl(signature.imageDataUrl);
  if (!png.ok) throw BadRequest(`imageDataUrl: ${png.reason}.`);
  return { kind: "drawn", imageSha256: createHash("sha256").update(png.bytes).digest("hex") };
}

async function findExisting(
  db: Db,
  { userId, requestId, idempotencyKey }: { userId: string | null; requestId: string; idempotencyKey?: string },
): Promise<ESignature | undefined> {
  if (idempotencyKey !== undefined && userId !== null) {
    const [byKey] = await db
      .select()
      .from(eSignatures)
      .where(and(eq(eSignatures.authUserId, userId), eq(eSignatures.idempotencyKey, idempotencyKey)))
      .limit(1);
    if (byKey && byKey.signatureRequestId !== requestId) {
      throw Conflict("This Idempotency-Key was already used for another e-signature.");
    }
    if (byKey) return byKey;
  }
  const [byRequest] = await db.select().from(eSignatures).where(eq(eSignatures.signatureRequestId, requestId)).limit(1);
  return byRequest;
}

/** Required, unsigned signature requests of the package, optionally narrowed by a signer condition. */
async function countUnsigned(db: Db, packageId: string, signerCondition?: ReturnType<typeof eq>): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(signatureRequests)
    .innerJoin(packageSigners, eq(packageSigners.id, signatureRequests.signerId))
    .where(
      and(
        eq(signatureRequests.packageId, packageId),
        eq(signatureRequests.required, true),
        ne(signatureRequests.status, "signed"),
        signerCondition,
      ),
    );
  return row?.n ?? 0;
}

async function completeSigner(db: Db, { signer, now, audit }: { signer: PackageSigner; now: Date; audit: AuditBase }): Promise<void> {
  if (signer.status === "signed") return;
  if ((await countUnsigned(db, signer.packageId, eq(packageSigners.id, signer.id))) > 0) return;
  await db.update(packageSigners).set({ status: "signed", signedAt: now }).where(eq(packageSigners.id, signer.id));
  await recordAuditEntry(db, {
    ...audit,
    action: "signer.signed",
    entityType: "package_signer",
    entityId: signer.id,
    before: { status: signer.status },
    after: { status: "signed" },
  });
}

async function advancePackage(
  db: Db,
  { signing, signer, now, audit }: { signing: SigningPackage; signer: PackageSigner; now: Date; audit: AuditBase },
): Promise<void> {
  const transitionAudit = { actorUserId: audit.actorUserId, ipAddress: audit.ipAddress };
  // Ink and review-only documents have their own final states: the package completes on the
  // completion rule, not merely on the last signature.
  if ((await completePackageIfDone(db, signing, { ...transitionAudit, at: now })).completed) return;
  if (signing.status === "sent") await transitionSigning(db, signing, "in_progress", transitionAudit, { at: now });
  if ((await countUnsigned(db, signing.id, eq(packageSigners.routingOrder, signer.routingOrder))) === 0) {
    await notifyNextRoutingGroup(db, { signing, afterRoutingOrder: signer.routingOrder, ...transitionAudit });
  }
}

/** Moves the document to `esigned` once every required signature request on it is signed. */
async function markDocumentESignedIfDone(db: Db, { document, audit }: { document: PackageDocument; audit: AuditBase }): Promise<void> {
  if (document.executionStatus !== "pending") return;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(signatureRequests)
    .where(and(eq(signatureRequests.documentId, document.id), eq(signatureRequests.required, true), ne(signatureRequests.status, "signed")));
  if ((row?.n ?? 0) > 0) return;
  await transitionDocument(db, document, "esigned", { organizationId: audit.organizationId, actorUserId: audit.actorUserId, ipAddress: audit.ipAddress });
}
