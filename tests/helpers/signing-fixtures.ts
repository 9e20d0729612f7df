import { crc32, deflateSync } from "node:zlib";
import { and, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  auditLog,
  eSignatures,
  jobs,
  packageDocuments,
  packageSigners,
  signatureRequests,
  signingPackages,
  users,
  type Location,
  type SigningStatus,
} from "@/db/schema";
import { inspectPdf, renderAgreementPdf } from "@/lib/documents/pdf";
import { createUser } from "./fixtures";

export type FixtureSigner = { email: string; routingOrder?: number; role?: "signer" | "co_signer"; status?: "pending" | "notified" };

export type FixturePackage = {
  id: string;
  documents: { id: string; sha256: string }[];
  signers: { id: string; userId: string; email: string; routingOrder: number }[];
  /** Signature request id by `${signerEmail}:${documentIndex}`. */
  requests: Map<string, string>;
};

/** Returns the user with this email, creating a plain local user when there is none. */
export async function ensureUser(db: Db, email: string) {
  const [found] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return found ?? createUser(db, email);
}

/**
 * A package at `location` in `status` (default sent) with `documentCount` PDFs and one required
 * signature request per signer × document. Signers of the lowest routing order start `notified`,
 * the others `pending`, unless given.
 */
export async function createSignerPackage(
  db: Db,
  options: { location: Location; signers: FixtureSigner[]; documentCount?: number; status?: SigningStatus; title?: string },
): Promise<FixturePackage> {
  const [pkg] = await db
    .insert(signingPackages)
    .values({
      organizationId: options.location.organizationId,
      companyId: options.location.companyId,
      locationId: options.location.id,
      title: options.title ?? "Fixture package",
      status: options.status ?? "sent",
      sentAt: options.status === "draft" ? null : new Date(),
    })
    .returning();
  const documents: FixturePackage["documents"] = [];
  for (let i = 0; i < (options.documentCount ?? 1); i++) {
    const bytes = await renderAgreementPdf({ title: `Fixture document ${i + 1} ${pkg!.id}`, parties: ["Buyer"], pages: 1 });
    const info = await inspectPdf(bytes);
    const [doc] = await db
      .insert(packageDocuments)
      .values({ packageId: pkg!.id, name: `Document ${i + 1}.pdf`, content: bytes, sizeBytes: info.sizeBytes, sha256: info.sha256, pageCount: info.pageCount, position: i })
      .returning();
    documents.push({ id: doc!.id, sha256: doc!.sha256 });
  }
  const first = Math.min(...options.signers.map((s) => s.routingOrder ?? 1));
  const signers: FixturePackage["signers"] = [];
  const requests = new Map<string, string>();
  for (const s of options.signers) {
    const user = await ensureUser(db, s.email);
    const routingOrder = s.routingOrder ?? 1;
    const [row] = await db
      .insert(packageSigners)
      .values({
        packageId: pkg!.id,
        userId: user.id,
        name: user.name,
        email: s.email,
        role: s.role ?? "signer",
        routingOrder,
        status: s.status ?? (routingOrder === first && options.status !== "draft" ? "notified" : "pending"),
      })
      .returning();
    signers.push({ id: row!.id, userId: user.id, email: s.email, routingOrder });
    for (const [index, doc] of documents.entries()) {
      const [request] = await db
        .insert(signatureRequests)
        .values({ packageId: pkg!.id, documentId: doc.id, signerId: row!.id })
        .returning();
      requests.set(`${s.email}:${index}`, request!.id);
    }
  }
  return { id: pkg!.id, documents, signers, requests };
}

/** The seeded demo package (sent; signer@ and cosigner@ in routing group 1, one PDF). */
export async function getDemoPackage(db: Db) {
  const [pkg] = await db.select().from(signingPackages).where(eq(signingPackages.title, "Retail installment contract — Sam Signer"));
  const [doc] = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, pkg!.id));
  const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, pkg!.id));
  const draft = (await db.select().from(signingPackages).where(eq(signingPackages.status, "draft")))[0]!;
  return { id: pkg!.id, organizationId: pkg!.organizationId, document: doc!, signers, draftId: draft.id };
}

/** A real PNG (`width` × `height`, grey) as a data: URL. */
export function pngDataUrl(width = 4, height = 2): string {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  const raw = Buffer.alloc((width + 1) * height, 0x80);
  for (let y = 0; y < height; y++) raw[y * (width + 1)] = 0;
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** Counts used by "nothing changed" assertions. */
export async function signerSideCounts(db: Db, packageId: string) {
  const count = async (q: Promise<{ n: number }[]>) => (await q)[0]!.n;
  const n = sql<number>`count(*)::int`;
  const [pkg] = await db.select({ status: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, packageId));
  return {
    status: pkg?.status,
    eSignatures: await count(db.select({ n }).from(eSignatures).where(eq(eSignatures.packageId, packageId))),
    signed: await count(
      db.select({ n }).from(signatureRequests).where(and(eq(signatureRequests.packageId, packageId), eq(signatureRequests.status, "signed"))),
    ),
    signerStatuses: (await db.select({ s: packageSigners.status }).from(packageSigners).where(eq(packageSigners.packageId, packageId)))
      .map((r) => r.s)
      .sort(),
    audit: await count(db.select({ n }).from(auditLog).where(eq(auditLog.packageId, packageId))),
    jobs: await count(db.select({ n }).from(jobs)),
  };
}
