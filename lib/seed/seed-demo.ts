import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import {
  companies,
  flows,
  locations,
  memberships,
  organizations,
  users,
  type NewMembership,
} from "@/db/schema";
import { hashPassword } from "@/lib/auth/passwords";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";

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
 * changes nothing. Everything is written in one transaction; sending the sample package enqueues
 * its two invitation emails, which land in the dev outbox.
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
  const otherPdfBytes = await renderAgreementPdf({ title: "Bill of Sale", parties: ["Buyer: Pat Elsewhere"], pages: 1 });

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

    // Packages go through the same functions as the API, so they can only be in states real code
    // reaches and carry their audit trail (signing.created, signer.notified, signing.sent).
    const manager = await resolvePrincipal(tx, localSubjectForEmail("manager@demo.local"));
    const sample = await createSigning(tx, {
      principal: manager,
      locationId: austin!.id,
      title: "Retail installment contract — Sam Signer",
      message: "Please review and sign your closing documents.",
      signers: [
        { name: "Sam Signer", email: "signer@demo.local", role: "signer", routingOrder: 1 },
        { name: "Casey Cosigner", email: "cosigner@demo.local", role: "co_signer", routingOrder: 1 },
      ],
      documents: [{ name: "Retail Installment Contract.pdf", bytes: pdfBytes }],
    });
    await sendSigning(tx, { principal: manager, packageId: sample.id });
    await createSigning(tx, { principal: manager, locationId: dallas!.id, title: "Chattel loan — draft for Dallas" });
    const otherManager = await resolvePrincipal(tx, localSubjectForEmail("manager@other.local"));
    await createSigning(tx, {
      principal: otherManager,
      locationId: otherLocation!.id,
      title: "Bill of sale — Pat Elsewhere",
      documents: [{ name: "Bill of Sale.pdf", bytes: otherPdfBytes }],
    });
    // A borrower with no account, proof by the emailed link alone: the invitation (with its access
    // link) is in the dev outbox, /dev/outbox (README, "Open a package as a borrower").
    const linkOnly = await createSigning(tx, {
      principal: otherManager,
      locationId: otherLocation!.id,
      title: "Promissory note — Pat Borrower (link only)",
      message: "Please review and sign your note.",
      signerAuthMethod: "link",
      signers: [{ name: "Pat Borrower", email: "pat.borrower@example.com", role: "signer", routingOrder: 1 }],
      documents: [{ name: "Promissory Note.pdf", bytes: otherPdfBytes }],
    });
    await sendSigning(tx, { principal: otherManager, packageId: linkOnly.id });

    return { seeded: true, organizationId: demo!.id, otherOrganizationId: other!.id };
  });
}
