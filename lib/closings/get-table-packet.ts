import { readObject } from "@/lib/storage/objects";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { organizations, packageDocuments, packageSigners } from "@/db/schema";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict } from "@/lib/errors";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { buildTablePacket } from "./table-packet";

/** The table packet of a package the caller manages or is the settlement agent of (404 otherwise; 409 when no document is signed in ink). */
export async function getTablePacket(db: Db, options: { principal: Principal; packageId: string }): Promise<{ filename: string; content: Uint8Array }> {
  requireCapability(options.principal, "scanbacks:read", "You do not have permission to download the table packet.");
  const signing = await getSigningOrThrow(db, { ...options, capability: "scanbacks:read" });
  const [documents, signers, [organization]] = await Promise.all([
    db.select().from(packageDocuments).where(eq(packageDocuments.packageId, signing.id)).orderBy(asc(packageDocuments.position), asc(packageDocuments.createdAt), asc(packageDocuments.id)),
    db.select().from(packageSigners).where(eq(packageSigners.packageId, signing.id)).orderBy(asc(packageSigners.routingOrder), asc(packageSigners.createdAt), asc(packageSigners.id)),
    db.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, signing.organizationId)),
  ]);
  if (!documents.some((d) => isInkMode(d.executionMode))) throw Conflict("This package has no document signed in ink, so it has no table packet.");
  const content = await buildTablePacket({
    packageId: signing.id,
    title: signing.title,
    organizationName: organization?.name ?? "",
    createdAt: signing.createdAt,
    borrowers: signers.map((s) => ({ name: s.name, email: s.email })),
    appointment: { closingAt: signing.closingAt, closingPlace: signing.closingPlace, settlementAgent: signing.settlementAgent },
    documents: await Promise.all(documents.map(async (d) => ({ ...d, content: isInkMode(d.executionMode) ? await readObject(db, d.storageKey) : new Uint8Array() }))),
  });
  return { filename: `table-packet-${signing.id}.pdf`, content };
}
