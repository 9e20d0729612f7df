import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, packageDocuments, packageSigners, type PackageDocument, type SigningPackage } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { brandMarkOf, getOrganizationBranding, type BrandMark } from "@/lib/branding/branding";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { getScanbackReport, listActiveScanbackScans, type ScanbackReport, type ScanbackScanStatus } from "@/lib/closings/scanback";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";

export type AgentClosing = {
  signing: Pick<SigningPackage, "id" | "title" | "status" | "closingAt" | "closingPlace" | "settlementAgent">;
  lenderName: string;
  brand: BrandMark;
  /** The borrowers' names only: the agent needs them at the table, nothing more of theirs. */
  borrowers: string[];
  /** The ink documents only: what the agent prints and scans (never an e-signed document's content). */
  documents: Pick<PackageDocument, "id" | "name" | "pageCount" | "executionMode" | "executionStatus">[];
  report: ScanbackReport;
  /** Its scans still being read, and those that failed in the last day. */
  scans: ScanbackScanStatus[];
};

/**
 * The closing as its settlement agent sees it (`scanbacks:read`: a manager, or the agent session of
 * this package): the appointment, the borrowers' names, the ink documents and the scanback report.
 */
export async function getAgentClosing(db: Db, options: { principal: Principal; packageId: string }): Promise<AgentClosing> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to read scanned pages.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  const [documents, signers, [org], branding, report, scans] = await Promise.all([
    db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id)).orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id)),
    db.select({ name: packageSigners.name }).from(packageSigners).where(eq(packageSigners.packageId, signing.id)).orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id)),
    db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, signing.organizationId)),
    getOrganizationBranding(db, signing.organizationId),
    getScanbackReport(db, options),
    listActiveScanbackScans(db, options),
  ]);
  return {
    signing: { id: signing.id, title: signing.title, status: signing.status, closingAt: signing.closingAt, closingPlace: signing.closingPlace, settlementAgent: signing.settlementAgent },
    lenderName: branding?.displayName ?? org?.name ?? "",
    brand: brandMarkOf(branding, org?.name),
    borrowers: signers.map((s) => s.name),
    documents: documents
      .filter((d) => isInkMode(d.executionMode))
      .map((d) => ({ id: d.id, name: d.name, pageCount: d.pageCount, executionMode: d.executionMode, executionStatus: d.executionStatus })),
    report,
    scans,
  };
}
