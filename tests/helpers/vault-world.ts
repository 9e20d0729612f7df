import { eq } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "@/db/client";
import { organizations, transferableRecords, type TransferableRecord } from "@/db/schema";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal, type Principal } from "@/lib/auth/principal";
import { sealPackage } from "@/lib/seals/seal-package";
import { sendSigning } from "@/lib/signings/send-signing";
import { setDocumentTransferable } from "@/lib/transferable-records/set-document-transferable";
import { eSignEveryDocument } from "./api";
import { createUser, type DemoWorld } from "./fixtures";
import { createSignerPackage, type FixturePackage } from "./signing-fixtures";

/**
 * The organizations a transferable record moves between, on top of the demo world: the lender (the
 * demo organization, which sends the packages), an investor (the demo's "other" organization) and a
 * warehouse bank created here (`bankSlug`, unique per test file), each with an administrator.
 */
export type VaultWorld = {
  ids: { lender: number; investor: number; bank: number };
  /** owner@demo.local, the lender's owner. */
  lender: Principal;
  /** manager@demo.local: a manager of the lender's, not an administrator. */
  lenderManager: Principal;
  investor: Principal;
  bank: Principal;
};

export async function loadVaultWorld(db: Db, world: DemoWorld, bankSlug: string): Promise<VaultWorld> {
  const [other] = await db.select().from(organizations).where(eq(organizations.slug, "other"));
  const [bankOrg] = await db.insert(organizations).values({ name: "Warehouse Bank N.A.", slug: bankSlug }).returning();
  const ids = { lender: world.austin.organizationId, investor: other!.id, bank: bankOrg!.id };
  await createUser(db, "admin@other.local", [{ role: "org_admin", organizationId: ids.investor }]);
  await createUser(db, "admin@bank.local", [{ role: "org_admin", organizationId: ids.bank }]);
  return {
    ids,
    lender: await resolvePrincipal(db, localSubjectForEmail("owner@demo.local")),
    lenderManager: await resolvePrincipal(db, localSubjectForEmail("manager@demo.local")),
    investor: await resolvePrincipal(db, localSubjectForEmail("admin@other.local")),
    bank: await resolvePrincipal(db, localSubjectForEmail("admin@bank.local")),
  };
}

/**
 * A draft in the lender's Austin location with `documentCount` documents, the first marked
 * transferable; sent, e-signed through `/v1` by its one signer (`buyer`) on every document, and
 * sealed, which establishes the record.
 */
export async function sealedTransferable(
  db: Db,
  { world, lender, title, buyer, documentCount = 1 }: { world: DemoWorld; lender: Principal; title: string; buyer: string; documentCount?: number },
): Promise<{ pkg: FixturePackage; record: TransferableRecord }> {
  const pkg = await createSignerPackage(db, { location: world.austin, title, documentCount, status: "draft", signers: [{ email: buyer }] });
  const contract = pkg.documents[0]!;
  expect(await setDocumentTransferable(db, { principal: lender, packageId: pkg.id, documentId: contract.id, transferable: true })).toEqual({
    documentId: contract.id,
    transferable: true,
  });
  await sendSigning(db, { principal: lender, packageId: pkg.id });
  await eSignEveryDocument(pkg, buyer, "Bo Buyer");
  expect(await sealPackage(db, { packageId: pkg.id })).toMatchObject({ outcome: "sealed" });
  const [record] = await db.select().from(transferableRecords).where(eq(transferableRecords.packageId, pkg.id));
  return { pkg, record: record! };
}
