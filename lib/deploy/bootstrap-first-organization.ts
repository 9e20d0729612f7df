import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { memberships, organizations, users } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { createInviteToken } from "@/lib/auth/create-invite-token";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { serializeOrganization } from "@/lib/organizations/serialize-organization";

/**
 * `npm run bootstrap`: on an empty production database, the first organization and the person who
 * runs it (global `admin` and the organization's `org_admin`). Does nothing once any organization
 * exists, so it is safe to run on every deploy.
 */
export const bootstrapInputSchema = z.strictObject({
  organizationName: z.string().trim().min(1).max(200),
  organizationSlug: z
    .string()
    .trim()
    .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, "lowercase letters, digits and single hyphens")
    .max(48),
  adminEmail: z.email().trim().max(320),
  adminName: z.string().trim().min(1).max(200),
});

export type BootstrapInput = z.infer<typeof bootstrapInputSchema>;

export type BootstrapResult =
  | { created: false; organizations: number }
  | {
      created: true;
      organizationId: number;
      userId: string;
      provider: "local" | "clerk";
      /** Local provider only: the single-use link where the admin chooses a password. */
      invite?: { token: string; expiresAt: Date };
    };

export async function bootstrapFirstOrganization(
  db: Db,
  input: BootstrapInput,
  options: { clerk: boolean; now?: Date },
): Promise<BootstrapResult> {
  const parsed = bootstrapInputSchema.parse(input);
  return db.transaction(async (tx) => {
    // Two bootstraps at once: the second waits here and then sees the first one's organization.
    await tx.execute(sql`lock table ${organizations} in share row exclusive mode`);
    const [count] = await tx.select({ n: sql<number>`count(*)::int` }).from(organizations);
    if ((count?.n ?? 0) > 0) return { created: false, organizations: count!.n };

    const [organization] = await tx.insert(organizations).values({ name: parsed.organizationName, slug: parsed.organizationSlug }).returning();
    const email = parsed.adminEmail.toLowerCase();
    // An earlier half-finished setup may have left the person's row: keep it (and any password).
    const [existing] = await tx.select().from(users).where(sql`lower(${users.email}) = ${email}`).limit(1);
    const [user] = existing
      ? [existing]
      : await tx
          .insert(users)
          .values({
            email,
            name: parsed.adminName,
            authProvider: options.clerk ? "clerk" : "local",
            // With Clerk, the row links to the Clerk account on its first sign-in with this verified email.
            authSubject: options.clerk ? null : localSubjectForEmail(email),
          })
          .returning();
    await tx
      .insert(memberships)
      .values([
        { userId: user!.id, role: "admin" },
        { userId: user!.id, role: "org_admin", organizationId: organization!.id },
      ])
      .onConflictDoNothing();
    await recordAuditEntry(tx, {
      organizationId: organization!.id,
      actorUserId: null,
      action: "organization.created",
      entityType: "organization",
      entityId: String(organization!.id),
      after: { ...serializeOrganization(organization!), bootstrap: { adminUserId: user!.id } },
    });
    const needsPassword = !options.clerk && user!.authProvider === "local" && !user!.passwordHash;
    const invite = needsPassword
      ? await createInviteToken(tx, { userId: user!.id, organizationId: organization!.id, now: options.now })
      : undefined;
    return {
      created: true,
      organizationId: organization!.id,
      userId: user!.id,
      provider: options.clerk ? "clerk" : "local",
      invite: invite && { token: invite.token, expiresAt: invite.expiresAt },
    };
  });
}
