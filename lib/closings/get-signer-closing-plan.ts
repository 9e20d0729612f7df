import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type DocumentExecutionStatus, type ExecutionMode } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { getSignerAssignmentOrThrow } from "@/lib/packages/get-signer-assignment-or-throw";
import { isInkMode } from "@/lib/packages/document-state-machine";

export type SignerClosingPlan = {
  /** Whether the package has anything but e-signed documents; an all-e-sign package has no plan to show. */
  hybrid: boolean;
  closingAt: Date | null;
  closingPlace: string | null;
  settlementAgent: string | null;
  esignOpensAt: Date | null;
  esign: { id: string; name: string; done: boolean }[];
  atTable: { id: string; name: string; notarized: boolean; done: boolean }[];
  toRead: { id: string; name: string; acknowledged: boolean }[];
};

const done = (status: DocumentExecutionStatus) => status === "esigned" || status === "accepted";

/** What a signer of the package does with each document: e-sign now, sign in ink at the table (when, where), or only read and acknowledge. */
export async function getSignerClosingPlan(db: Db, options: { principal: Principal; packageId: string }): Promise<SignerClosingPlan> {
  requireCapability(options.principal, "signer:esignatures:write", "You do not have permission to sign packages.");
  const { signing } = await getSignerAssignmentOrThrow(db, options);
  const documents = await db
    .select({ id: packageDocuments.id, name: packageDocuments.name, executionMode: packageDocuments.executionMode, executionStatus: packageDocuments.executionStatus })
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, signing.id))
    .orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id));
  const of = (mode: ExecutionMode) => documents.filter((d) => d.executionMode === mode);
  return {
    hybrid: documents.some((d) => d.executionMode !== "esign"),
    closingAt: signing.closingAt,
    closingPlace: signing.closingPlace,
    settlementAgent: signing.settlementAgent,
    esignOpensAt: signing.esignOpensAt,
    esign: of("esign").map((d) => ({ id: d.id, name: d.name, done: done(d.executionStatus) })),
    atTable: documents.filter((d) => isInkMode(d.executionMode)).map((d) => ({ id: d.id, name: d.name, notarized: d.executionMode === "notarize", done: done(d.executionStatus) })),
    toRead: of("review_only").map((d) => ({ id: d.id, name: d.name, acknowledged: d.executionStatus === "acknowledged" })),
  };
}
