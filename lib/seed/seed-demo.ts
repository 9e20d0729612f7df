import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  companies,
  flows,
  locations,
  memberships,
  organizations,
  packageDocuments,
  packageSigners,
  signatureRequests,
  signingPackages,
  users,
  type NewMembership,
} from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { inspectPdf, renderAgreementPdf } from "@/lib/documents/pdf";

export const DEMO_PASSWORD = "demo-signing";

export const DEMO_USERS = [
  { email: "admin@demo.local", name: "Ada Admin", role: "admin" },
  { email: "owner@demo.local", name: "Olive Owner", role: "org_admin" },
  { email: "manager@demo.local", name: "Max Manager", role: "manager" },
  { email: "signer@demo.local", name: "Sam Signer", role: "signer" },
  { email: "cosigner@demo.local", name: "Casey Cosigner", role: "signer" },
  { email: "manager@other.local", name: "Morgan Other", role: "manager" },
] as const;

export type DemoSeedResult = { seeded: boolean; organizationId: number; otherOrganizationId: number };

/**
 * Loads the demo dataset (README "Demo data"). Idempotent: when the demo organization exists it
 * changes nothing. Everything is written in one transaction.
 */
export async function seedDemo(db: Db): Promise<DemoSeedResult> {
  const [existing] = await db.select().from(organizations).where(eq(organizations.slug, "demo")).limit(1);
  if (existing) {
    const [other] = await db.select().from(organizations).where(eq(organizations.slug, "other")).limit(1);
    return { seeded: false, organizationId: existing.id, otherOrganizationId: other?.id ?? existing.id };
  }
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const pdfBytes = await renderAgreementPdf({
    title: "Retail Installment Contract and Security Agreement",
    parties: ["Buyer: Sam Signer", "Co-buyer: Casey Cosigner"],
  });
  const pdf = await inspectPdf(pdfBytes);
  const otherPdfBytes = await renderAgreementPdf({ title: "Bill of Sale", parties: ["Buyer: Pat Elsewhere"], pages: 1 });
  const otherPdf = await inspectPdf(otherPdfBytes);

  return db.transaction(async (tx) => {
    const [demo] = await tx.insert(organizations).values({ name: "Demo Lending Co.", slug: "demo" }).returning();
    const [other] = await tx.insert(organizations).values({ name: "Other Mortgage LLC", slug: "other" }).returning();
    const [demoCompany] = await tx.insert(companies).values({ organizationId: demo!.id, name: "Demo Homes Finance" }).returning();
    const [otherCompany] = await tx.insert(companies).values({ organizationId: other!.id, name: "Other Homes Credit" }).returning();
    const [austin, dallas] = await tx
      .insert(locations)
      .values([
        { organizationId: demo!.id, companyId: demoCompany!.id, name: "Austin Branch", city: "Austin", region: "TX", timezone: "America/Chicago" },
        { organizationId: demo!.id, companyId: demoCompany!.id, name: "Dallas Branch", city: "Dallas", region: "TX", timezone: "America/Chicago" },
      ])
      .returning();
    const [otherLocation] = await tx
      .insert(locations)
      .values({ organizationId: other!.id, companyId: otherCompany!.id, name: "Tulsa Office", city: "Tulsa", region: "OK", timezone: "America/Chicago" })
      .returning();

    const created = await tx
      .insert(users)
      .values(
        DEMO_USERS.map((u) => ({
          email: u.email,
          name: u.name,
          authProvider: "local" as const,
          authSubject: localSubjectForEmail(u.email),
          passwordHash,
        })),
      )
      .returning();
    const byEmail = new Map(created.map((u) => [u.email, u]));
    const id = (email: (typeof DEMO_USERS)[number]["email"]) => byEmail.get(email)!.id;

    const assignments: NewMembership[] = [
      { userId: id("admin@demo.local"), role: "admin" },
      { userId: id("owner@demo.local"), role: "org_admin", organizationId: demo!.id },
      { userId: id("manager@demo.local"), role: "manager", organizationId: demo!.id },
      { userId: id("signer@demo.local"), role: "signer", organizationId: demo!.id },
      { userId: id("cosigner@demo.local"), role: "signer", organizationId: demo!.id },
      { userId: id("manager@other.local"), role: "manager", organizationId: other!.id },
    ];
    await tx.insert(memberships).values(assignments);

    await tx.insert(flows).values([
      { organizationId: demo!.id, name: "Standard closing", steps: ["review", "sign", "link_bank", "done"], isDefault: true },
      { organizationId: other!.id, name: "Sign only", steps: ["review", "sign", "done"], isDefault: true },
    ]);

    const now = new Date();
    const [sample] = await tx
      .insert(signingPackages)
      .values({
        organizationId: demo!.id,
        companyId: demoCompany!.id,
        locationId: austin!.id,
        title: "Retail installment contract — Sam Signer",
        status: "sent",
        createdByUserId: id("manager@demo.local"),
        message: "Please review and sign your closing documents.",
        sentAt: now,
      })
      .returning();
    await tx.insert(signingPackages).values({
      organizationId: demo!.id,
      companyId: demoCompany!.id,
      locationId: dallas!.id,
      title: "Chattel loan — draft for Dallas",
      createdByUserId: id("manager@demo.local"),
    });
    const [otherPackage] = await tx
      .insert(signingPackages)
      .values({
        organizationId: other!.id,
        companyId: otherCompany!.id,
        locationId: otherLocation!.id,
        title: "Bill of sale — Pat Elsewhere",
        createdByUserId: id("manager@other.local"),
      })
      .returning();

    const [doc] = await tx
      .insert(packageDocuments)
      .values({
        packageId: sample!.id,
        name: "Retail Installment Contract.pdf",
        content: pdfBytes,
        sizeBytes: pdf.sizeBytes,
        sha256: pdf.sha256,
        pageCount: pdf.pageCount,
      })
      .returning();
    await tx.insert(packageDocuments).values({
      packageId: otherPackage!.id,
      name: "Bill of Sale.pdf",
      content: otherPdfBytes,
      sizeBytes: otherPdf.sizeBytes,
      sha256: otherPdf.sha256,
      pageCount: otherPdf.pageCount,
    });
    const signers = await tx
      .insert(packageSigners)
      .values([
        { packageId: sample!.id, userId: id("signer@demo.local"), name: "Sam Signer", email: "signer@demo.local", role: "signer", routingOrder: 1, status: "notified", notifiedAt: now },
        { packageId: sample!.id, userId: id("cosigner@demo.local"), name: "Casey Cosigner", email: "cosigner@demo.local", role: "co_signer", routingOrder: 1, status: "notified", notifiedAt: now },
      ])
      .returning();
    await tx.insert(signatureRequests).values(signers.map((s) => ({ packageId: sample!.id, documentId: doc!.id, signerId: s.id })));

    return { seeded: true, organizationId: demo!.id, otherOrganizationId: other!.id };
  });
}
