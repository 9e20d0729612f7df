import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, packageSeals, sealedDocuments, signingPackages } from "@/db/schema";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { checkAuthThrottle } from "@/lib/auth/check-auth-throttle";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { MAX_PDF_BYTES } from "@/lib/pdf/validate-pdf-upload";
import { BadRequest, TooManyRequests } from "@/lib/errors";
import { loadSealingIdentity } from "./load-sealing-identity";
import { getPublicRecordControl, type PublicRecordControl } from "@/lib/transferable-records/get-vault-record";
import { COPY_KEYWORD_PREFIX } from "@/lib/transferable-records/mark-copy";
import { readEmbeddedSeal } from "./read-embedded-seal";

/** Sealed files are the original (at most MAX_PDF_BYTES) plus the certificate pages and the signature. */
export const MAX_VERIFY_BYTES = MAX_PDF_BYTES + 1024 * 1024;

/** The lender a sealed file belongs to, as its certificate names it (display name, logo on our origin, colour). */
export type SealLender = BrandMark;

export type SealVerification =
  | {
      outcome: "sealed";
      packageTitle: string;
      sealedAt: Date;
      /** The time-stamp authority's time (RFC 3161 genTime) in the file's seal; null for a seal made without one. */
      trustedTime: Date | null;
      fileLabel: string;
      sha256: string;
      lender: SealLender;
      /** When the file is a transferable record's authoritative copy: its controller and control history. */
      transferableRecord: PublicRecordControl | null;
    }
  /** A marked copy of a transferable record (not the authoritative copy): the record's controller and history. */
  | { outcome: "record_copy"; sha256: string; transferableRecord: PublicRecordControl }
  | { outcome: "modified"; reason: "changed" | "appended" | "unknown_copy"; sha256: string }
  | { outcome: "not_sealed"; sha256: string };

/**
 * Answers "did we seal this PDF, and is it unchanged?" for anyone, signed in or not.
 *
 * - `sealed`: the file's SHA-256 is one we stored for a sealed document or certificate. Only what the
 *   file itself prints is returned (the package title, the sealing time, the document's name, the
 *   lender's display name and logo from its certificate), and the trusted time of its timestamp.
 * - `modified`: the file carries a signature made with our sealing certificate, but its bytes are not
 *   a copy we sealed: the signed content changed (`changed`), something was appended after sealing
 *   (`appended`), or the signature checks out yet we hold no such file (`unknown_copy`).
 * - `not_sealed`: neither. (A file sealed with an earlier, rotated certificate and then changed is
 *   reported here too: only the current certificate is recognised.)
 */
export async function verifySealedPdf(db: Db, { bytes, clientIp }: { bytes: Uint8Array; clientIp?: string | null }): Promise<SealVerification> {
  if (clientIp) await throttle(db, clientIp);
  if (bytes.byteLength === 0) throw BadRequest("file: choose a PDF file.");
  if (bytes.byteLength > MAX_VERIFY_BYTES) throw BadRequest(`file: the PDF exceeds ${MAX_VERIFY_BYTES / 1024 / 1024} MiB.`);
  if (Buffer.from(bytes.subarray(0, 1024)).toString("latin1").indexOf("%PDF-") < 0) throw BadRequest("file: this is not a PDF file.");
  const sha256 = createHash("sha256").update(bytes).digest("hex");

  const [document] = await db
    .select({ title: signingPackages.title, sealedAt: packageSeals.sealedAt, name: packageDocuments.name, organizationId: signingPackages.organizationId })
    .from(sealedDocuments)
    .innerJoin(packageDocuments, eq(packageDocuments.id, sealedDocuments.documentId))
    .innerJoin(signingPackages, eq(signingPackages.id, sealedDocuments.packageId))
    .innerJoin(packageSeals, eq(packageSeals.packageId, sealedDocuments.packageId))
    .where(eq(sealedDocuments.sha256, sha256))
    .limit(1);
  if (document?.sealedAt) {
    return {
      outcome: "sealed",
      packageTitle: document.title,
      sealedAt: document.sealedAt,
      trustedTime: trustedTimeOf(bytes),
      fileLabel: document.name,
      sha256,
      lender: await lenderOf(db, document.organizationId),
      transferableRecord: await getPublicRecordControl(db, { sha256 }),
    };
  }
  const [certificate] = await db
    .select({ title: signingPackages.title, sealedAt: packageSeals.sealedAt, organizationId: signingPackages.organizationId })
    .from(packageSeals)
    .innerJoin(signingPackages, eq(signingPackages.id, packageSeals.packageId))
    .where(eq(packageSeals.certificateSha256, sha256))
    .limit(1);
  if (certificate?.sealedAt) {
    return {
      outcome: "sealed",
      packageTitle: certificate.title,
      sealedAt: certificate.sealedAt,
      trustedTime: trustedTimeOf(bytes),
      fileLabel: "Certificate of completion",
      sha256,
      lender: await lenderOf(db, certificate.organizationId),
      transferableRecord: null,
    };
  }

  // A copy we marked names its record in the PDF keywords (lib/transferable-records/mark-copy.ts).
  const copyOf = new RegExp(`${COPY_KEYWORD_PREFIX}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})`).exec(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("latin1"));
  const record = copyOf ? await getPublicRecordControl(db, { recordId: copyOf[1] }) : null;
  if (record) return { outcome: "record_copy", sha256, transferableRecord: record };

  const seal = readEmbeddedSeal(bytes);
  const ours = createHash("sha256").update(loadSealingIdentity().certificateDer).digest("hex");
  if (!seal || seal.certificateSha256 !== ours) return { outcome: "not_sealed", sha256 };
  if (!seal.intact) return { outcome: "modified", reason: "changed", sha256 };
  if (!seal.coversWholeFile) return { outcome: "modified", reason: "appended", sha256 };
  return { outcome: "modified", reason: "unknown_copy", sha256 };
}

function trustedTimeOf(bytes: Uint8Array): Date | null {
  const timestamp = readEmbeddedSeal(bytes)?.timestamp;
  return timestamp?.valid ? timestamp.genTime : null;
}

async function lenderOf(db: Db, organizationId: number): Promise<SealLender> {
  return brandMarkOf(await getOrganizationBranding(db, organizationId));
}

/**
 * Every check counts against the client on the sign-in throttle's counters (`verify-client:<ip>`): a
 * person checks a few files; a script hashing through a pile of PDFs is slowed, then refused.
 */
async function throttle(db: Db, clientIp: string): Promise<void> {
  const rules = [{ key: `verify-client:${clientIp.slice(0, 64)}`, slowAfter: 30, lockAfter: 120 }];
  const state = await checkAuthThrottle(db, { rules });
  if (state.refused) throw TooManyRequests("Too many files checked from your network; try again later.", state.retryAfterSeconds);
  await recordAuthFailure(db, { rules });
  if (state.delayMs > 0) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
}
