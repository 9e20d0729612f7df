import { randomUUID } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  auditLog,
  eSignatures,
  jobs,
  memberships,
  packageDocuments,
  packageSigners,
  signatureRequests,
  signingPackages,
  users,
  type Location,
  type SigningStatus,
} from "@/db/schema";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { cancelSigning } from "@/lib/signings/cancel-signing";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import { transitionSigning } from "@/lib/package-lifecycle/transition-signing";
import { createUser } from "./fixtures";

export type FixtureSigner = { email: string; routingOrder?: number; role?: "signer" | "co_signer" };

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

/** An organization-level manager of `organizationId` (the seeded one when there is one) as a principal. */
export async function managerOf(db: Db, organizationId: number) {
  const [existing] = await db
    .select({ subject: users.authSubject })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "manager"), isNull(memberships.companyId), eq(users.isActive, true)))
    .orderBy(asc(memberships.id))
    .limit(1);
  const subject =
    existing?.subject ??
    (await createUser(db, `fixture-manager-${organizationId}@fixtures.local`, [{ role: "manager", organizationId }])).authSubject;
  return resolvePrincipal(db, subject!);
}

/**
 * A package at `location` in `status` (default sent) with `documentCount` PDFs and one signer per
 * entry, built through the domain functions an API caller uses — `createSigning` (as an
 * organization-level manager, who becomes its creator), `sendSigning` (one required signature
 * request per signer × document, the lowest routing group notified), `cancelSigning` (after sending) — so it can
 * only be in a state real code reaches. The signer-side package moves (in_progress, completed,
 * declined, expired) are made with `transitionSigning` on the sent package, which allows exactly the
 * state machine's moves; signer rows and signature requests stay as sending left them.
 */
export async function createSignerPackage(
  db: Db,
  options: { location: Location; signers: FixtureSigner[]; documentCount?: number; status?: SigningStatus; title?: string },
): Promise<FixturePackage> {
  const status = options.status ?? "sent";
  const principal = await managerOf(db, options.location.organizationId);
  const signerUsers = new Map<string, { id: string; name: string }>();
  for (const s of options.signers) signerUsers.set(s.email, await ensureUser(db, s.email));
  const title = options.title ?? "Fixture package";
  const documents = [];
  for (let i = 0; i < (options.documentCount ?? 1); i++) {
    const bytes = await renderAgreementPdf({ title: `Fixture document ${i + 1} ${title} ${randomUUID()}`, parties: ["Buyer"], pages: 1 });
    documents.push({ name: `Document ${i + 1}.pdf`, bytes });
  }
  const created = await createSigning(db, {
    principal,
    locationId: options.location.id,
    title,
    signers: options.signers.map((s) => ({ name: signerUsers.get(s.email)!.name, email: s.email, role: s.role ?? "signer", routingOrder: s.routingOrder ?? 1 })),
    documents,
  });
  if (status !== "draft") {
    const sent = await sendSigning(db, { principal, packageId: created.id });
    if (status === "cancelled") await cancelSigning(db, { principal, packageId: created.id, reason: "fixture" });
    else if (status !== "sent") await db.transaction((tx) => transitionSigning(tx, sent, status, { actorUserId: null }));
  }

  const docs = await db
    .select({ id: packageDocuments.id, sha256: packageDocuments.sha256 })
    .from(packageDocuments)
    .where(eq(packageDocuments.packageId, created.id))
    .orderBy(asc(packageDocuments.position));
  const signerRows = await db.select().from(packageSigners).where(eq(packageSigners.packageId, created.id));
  const signers = options.signers.map((s) => {
    const row = signerRows.find((r) => r.email === s.email)!;
    return { id: row.id, userId: signerUsers.get(s.email)!.id, email: s.email, routingOrder: row.routingOrder };
  });
  const requestRows = await db.select().from(signatureRequests).where(eq(signatureRequests.packageId, created.id));
  const requests = new Map<string, string>();
  for (const signer of signers) {
    for (const [index, doc] of docs.entries()) {
      const request = requestRows.find((r) => r.signerId === signer.id && r.documentId === doc.id);
      if (request) requests.set(`${signer.email}:${index}`, request.id);
    }
  }
  return { id: created.id, documents: docs, signers, requests };
}

/** The seeded demo package (sent; signer@ and cosigner@ in routing group 1, one PDF) and the seeded draft of its organization. */
export async function getDemoPackage(db: Db) {
  const [pkg] = await db.select().from(signingPackages).where(eq(signingPackages.title, "Retail installment contract — Sam Signer"));
  const [doc] = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, pkg!.id));
  const signers = await db.select().from(packageSigners).where(eq(packageSigners.packageId, pkg!.id));
  // The seeded draft of the same organization (the other organization has a draft of its own).
  const [draft] = await db
    .select()
    .from(signingPackages)
    .where(and(eq(signingPackages.status, "draft"), eq(signingPackages.title, "Chattel loan — draft for Dallas"), eq(signingPackages.organizationId, pkg!.organizationId)));
  if (!draft) throw new Error("the seeded draft (Chattel loan — draft for Dallas) is gone: a test before this one sent or deleted it");
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
