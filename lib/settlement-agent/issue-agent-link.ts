import { randomUUID } from "node:crypto";
import { and, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "@/db/client";
import { packageDocuments, settlementAgentLinks, type SettlementAgentLink } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { isInkMode } from "@/lib/packages/document-state-machine";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { BadRequest, Conflict } from "@/lib/errors";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { agentLinkToken, sha256Hex } from "@/lib/security/secrets";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { isOpenSigningStatus, signingStatusLabel } from "@/lib/packages/state-machine";
import { agentLinkExpiry } from "./rules";

/** Who gets the link: the settlement agent's name and email address. */
export const issueAgentLinkSchema = z
  .object({
    agentName: z.string().trim().min(1, "agentName: give the settlement agent's name").max(200),
    agentEmail: z.email("agentEmail: give the settlement agent's email address").trim().max(320),
  })
  .strict();
export type IssueAgentLinkInput = z.infer<typeof issueAgentLinkSchema>;

/** Revokes the package's live agent links (and so their sessions), inside the caller's transaction. */
export async function revokeLiveAgentLinks(db: Db, packageId: string, now: Date): Promise<SettlementAgentLink[]> {
  return db
    .update(settlementAgentLinks)
    .set({ revokedAt: now })
    .where(and(eq(settlementAgentLinks.packageId, packageId), isNull(settlementAgentLinks.revokedAt)))
    .returning();
}

/**
 * Issues the settlement agent's one-time link to an open package with ink documents: older links of
 * the package (and their sessions) are revoked, the new one expires 7 days after the appointment (at
 * least 7 days from now) and is emailed to the agent under the lender's brand. The token exists only
 * in that email. Audit entry `settlement_agent.link_issued`.
 */
export async function issueAgentLink(
  db: Db,
  options: { principal: Principal; packageId: string; input: IssueAgentLinkInput; ipAddress?: string | null; now?: Date },
): Promise<SettlementAgentLink> {
  requireCapability(options.principal, "signings:write", "You do not have permission to manage signing packages.");
  const parsed = issueAgentLinkSchema.safeParse(options.input);
  if (!parsed.success) throw BadRequest(parsed.error.issues.map((i) => i.message).join("; "));
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { ...options, capability: "signings:write", lock: true });
    if (!isOpenSigningStatus(signing.status)) {
      throw Conflict(`This signing package is ${signingStatusLabel(signing.status)}; a settlement agent link needs a sent, open package.`, "package_closed");
    }
    const documents = await tx.select({ executionMode: packageDocuments.executionMode }).from(packageDocuments).where(eq(packageDocuments.packageId, signing.id));
    if (!documents.some((d) => isInkMode(d.executionMode))) throw Conflict("This package has no document signed in ink, so the settlement agent has nothing to print or scan.");
    await revokeLiveAgentLinks(tx, signing.id, now);
    // The token is computed from the row's id (`agentLinkToken`); the email job computes it again when it sends the mail.
    const id = randomUUID();
    const [link] = await tx
      .insert(settlementAgentLinks)
      .values({
        id,
        packageId: signing.id,
        agentName: parsed.data.agentName,
        agentEmail: parsed.data.agentEmail,
        tokenHash: sha256Hex(agentLinkToken(id)),
        expiresAt: agentLinkExpiry(signing.closingAt, now),
        issuedByUserId: options.principal.user.id,
        createdAt: now,
      })
      .returning();
    // Rendered, under the lender's brand and with the link, when the job sends it (no link in the payload).
    await enqueueJob(tx, sendEmailDeclaration, { message: "settlement-agent-link", agentLinkId: id }, { idempotencyKey: `settlement-agent-link:${link!.id}` });
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: options.principal.user.id,
      action: "settlement_agent.link_issued",
      entityType: "settlement_agent_link",
      entityId: link!.id,
      ipAddress: options.ipAddress,
      after: { agentName: link!.agentName, agentEmail: link!.agentEmail, expiresAt: link!.expiresAt.toISOString() },
    });
    return link!;
  });
}
