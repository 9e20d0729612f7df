import { and, asc, desc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  attachmentRequests,
  auditLog,
  documentFields,
  documentScans,
  eSignatures,
  inPersonSignings,
  organizations,
  packageDocuments,
  packageSigners,
  signerAttachments,
  signingPackages,
  users,
  type DocumentField,
  type ESignature,
  type PackageDocument,
  type PackageSigner,
  type SigningPackage,
} from "@/db/schema";
import { DEFAULT_BRAND_COLOR, getOrganizationBranding } from "@/lib/branding/branding";
import { readOrganizationLogo } from "@/lib/branding/organization-logo";
import { NotFound } from "@/lib/errors";
import { SIGNER_CONSENTED } from "@/lib/packages/find-consent-entry";

export type SealScan = {
  documentId: string;
  /** The scan PDF's object in file storage. */
  storageKey: string;
  sha256: string;
  pageCount: number;
  reviewedAt: Date | null;
  reviewerName: string | null;
  reviewerEmail: string | null;
};

/** A review-only document's receipt, confirmed by a signer (its `document.acknowledged` audit entry). */
export type SealAcknowledgment = { documentId: string; signerId: string | null; acknowledgedAt: Date };

export type SealSigner = PackageSigner & {
  consentedAt: Date | null;
  /** The disclosure the signer accepted in the browser: its version and the language it was shown in (null for /v1 consents). */
  consentDisclosure: { version: string | null; language: string | null } | null;
  /** Each time the signer signed at the lender's desk: the host and the identification the host checked. */
  inPerson: { hostName: string; hostEmail: string; idType: string; idIssuer: string; idLastFour: string; startedAt: Date }[];
  /** Each embedded signing session the signer opened inside the lender's site: the origins allowed to frame it and who issued the URL. */
  embedded: { startedAt: Date; origins: string[]; issuedBy: { name: string | null; email: string } | null }[];
};

/** An accepted attachment a signer sent (lib/attachments): the certificate names it with its SHA-256. */
export type SealAttachment = {
  id: string;
  signerId: string;
  requestName: string;
  fileName: string;
  storageKey: string;
  sha256: string;
  pageCount: number;
  reviewedAt: Date | null;
  reviewerName: string | null;
  reviewerEmail: string | null;
};

/** The lender as the certificate shows it: the name borrowers know, its colour and its uploaded logo. */
export type SealBranding = {
  displayName: string;
  /** `#rrggbb`, checked for contrast when it was saved. */
  color: string;
  logo: { bytes: Uint8Array; contentType: "image/png" | "image/jpeg" } | null;
};

/** Everything a seal is made of, read in one place so the stamped pages and the certificate agree. */
export type SealEvidence = {
  signing: SigningPackage;
  organizationName: string;
  branding: SealBranding;
  signers: SealSigner[];
  documents: PackageDocument[];
  signatures: ESignature[];
  fields: DocumentField[];
  /** Accepted scans of ink documents (hybrid closings), with who accepted them. */
  scans: SealScan[];
  /** Who confirmed receipt of each review-only document, and when. */
  acknowledgments: SealAcknowledgment[];
  /** The signers' accepted attachments, in request order; appended to the standalone certificate. */
  attachments: SealAttachment[];
  /** The hash of the package's latest audit entry when the evidence was read. */
  auditHeadHash: string | null;
};

const EMBEDDED_SESSION_STARTED = "signer.embedded_session_started";

/** An embedded session as its `signer.embedded_session_started` entry records it (entries written before the issuer was recorded name none). */
function embeddedSessionOf(startedAt: Date, after: unknown): SealSigner["embedded"][number] {
  const data = (after ?? {}) as { origins?: unknown; issuedBy?: { name?: unknown; email?: unknown } | null };
  const origins = Array.isArray(data.origins) ? data.origins.filter((o): o is string => typeof o === "string") : [];
  const issuedBy = data.issuedBy && typeof data.issuedBy.email === "string" ? { name: typeof data.issuedBy.name === "string" ? data.issuedBy.name : null, email: data.issuedBy.email } : null;
  return { startedAt, origins, issuedBy };
}

export async function loadSealEvidence(db: Db, { packageId }: { packageId: string }): Promise<SealEvidence> {
  const [row] = await db
    .select({ signing: signingPackages, organizationName: organizations.name })
    .from(signingPackages)
    .innerJoin(organizations, eq(organizations.id, signingPackages.organizationId))
    .where(eq(signingPackages.id, packageId))
    .limit(1);
  if (!row) throw NotFound(`Signing package ${packageId} not found.`);
  const [signers, documents, signatures, fields, consents, [head], scans, branding, logo, acknowledged, inPerson, embedded, attachments] = await Promise.all([
    db.select().from(packageSigners).where(eq(packageSigners.packageId, packageId)).orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id)),
    db.select().from(packageDocuments).where(eq(packageDocuments.packageId, packageId)).orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id)),
    db.select().from(eSignatures).where(eq(eSignatures.packageId, packageId)).orderBy(asc(eSignatures.createdAt)),
    db.select().from(documentFields).where(eq(documentFields.packageId, packageId)).orderBy(asc(documentFields.page), asc(documentFields.createdAt)),
    db
      .select({ signerId: auditLog.entityId, createdAt: auditLog.createdAt, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, SIGNER_CONSENTED)))
      .orderBy(asc(auditLog.id)),
    db.select({ hash: auditLog.hash }).from(auditLog).where(eq(auditLog.packageId, packageId)).orderBy(desc(auditLog.id)).limit(1),
    db
      .select({
        documentId: documentScans.documentId,
        storageKey: documentScans.storageKey,
        sha256: documentScans.sha256,
        pageCount: documentScans.pageCount,
        reviewedAt: documentScans.reviewedAt,
        reviewerName: users.name,
        reviewerEmail: users.email,
      })
      .from(documentScans)
      .innerJoin(packageDocuments, eq(packageDocuments.id, documentScans.documentId))
      .leftJoin(users, eq(users.id, documentScans.reviewedByUserId))
      .where(and(eq(documentScans.packageId, packageId), eq(packageDocuments.executionStatus, "accepted"))),
    getOrganizationBranding(db, row.signing.organizationId),
    readOrganizationLogo(db, row.signing.organizationId),
    db
      .select({ documentId: auditLog.entityId, createdAt: auditLog.createdAt, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, "document.acknowledged")))
      .orderBy(asc(auditLog.id)),
    db.select().from(inPersonSignings).where(eq(inPersonSignings.packageId, packageId)).orderBy(asc(inPersonSignings.startedAt)),
    db
      .select({ signerId: auditLog.entityId, createdAt: auditLog.createdAt, after: auditLog.after })
      .from(auditLog)
      .where(and(eq(auditLog.packageId, packageId), eq(auditLog.action, EMBEDDED_SESSION_STARTED)))
      .orderBy(asc(auditLog.id)),
    db
      .select({
        id: signerAttachments.id,
        signerId: signerAttachments.signerId,
        requestName: attachmentRequests.name,
        fileName: signerAttachments.fileName,
        storageKey: signerAttachments.storageKey,
        sha256: signerAttachments.sha256,
        pageCount: signerAttachments.pageCount,
        reviewedAt: signerAttachments.reviewedAt,
        reviewerName: users.name,
        reviewerEmail: users.email,
      })
      .from(signerAttachments)
      .innerJoin(attachmentRequests, eq(attachmentRequests.id, signerAttachments.requestId))
      .leftJoin(users, eq(users.id, signerAttachments.reviewedByUserId))
      .where(and(eq(signerAttachments.packageId, packageId), eq(signerAttachments.status, "accepted")))
      .orderBy(asc(attachmentRequests.position), asc(attachmentRequests.createdAt), asc(signerAttachments.createdAt), asc(signerAttachments.id)),
  ]);
  const consentedAt = new Map<string, Date>();
  const disclosures = new Map<string, { version: string | null; language: string | null }>();
  for (const c of consents) {
    if (consentedAt.has(c.signerId)) continue;
    consentedAt.set(c.signerId, c.createdAt);
    const after = (c.after ?? {}) as { disclosureVersion?: unknown; disclosureLanguage?: unknown };
    disclosures.set(c.signerId, {
      version: typeof after.disclosureVersion === "string" ? after.disclosureVersion : null,
      language: typeof after.disclosureLanguage === "string" ? after.disclosureLanguage : null,
    });
  }
  return {
    signing: row.signing,
    organizationName: row.organizationName,
    branding: {
      displayName: branding?.displayName ?? row.organizationName,
      color: branding?.color ?? DEFAULT_BRAND_COLOR,
      logo: logo ? { bytes: logo.bytes, contentType: logo.logo.contentType === "image/png" ? "image/png" : "image/jpeg" } : null,
    },
    // One consent record: the signer row (written by the browser's consent step and by /v1's
    // `consent: true`); the audit entry for packages signed before the row carried it.
    signers: signers.map((s) => ({
      ...s,
      consentedAt: s.consentedAt ?? consentedAt.get(s.id) ?? null,
      consentDisclosure: disclosures.get(s.id) ?? null,
      inPerson: inPerson
        .filter((p) => p.signerId === s.id)
        .map((p) => ({ hostName: p.hostName, hostEmail: p.hostEmail, idType: p.idType, idIssuer: p.idIssuer, idLastFour: p.idLastFour, startedAt: p.startedAt })),
      embedded: embedded.filter((e) => e.signerId === s.id).map((e) => embeddedSessionOf(e.createdAt, e.after)),
    })),
    documents,
    signatures,
    fields,
    scans,
    acknowledgments: acknowledged.map((a) => {
      const signerId = (a.after as { signerId?: unknown } | null)?.signerId;
      return { documentId: a.documentId, signerId: typeof signerId === "string" ? signerId : null, acknowledgedAt: a.createdAt };
    }),
    attachments,
    auditHeadHash: head?.hash ?? null,
  };
}
