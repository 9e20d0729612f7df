import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signerAccessLinks, signingPackages } from "@/db/schema";
import { checkAuthThrottle } from "@/lib/auth/check-auth-throttle";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { sendEmailDeclaration } from "@/lib/email/send-email-payload";
import { enqueueJob } from "@/lib/jobs/enqueue-job";
import { issueAccessLinkId } from "./issue-access-link";
import { newLinkClientRules, SIGNER_RESEND_INTERVAL_MS } from "./rules";
import { isOpaqueTokenShape, sha256Hex } from "@/lib/security/secrets";

/** The one answer to "Email me a new link", whatever happened. */
export const NEW_LINK_ANSWER =
  "If this link was sent to you, a new one is on its way to the email address the sender has for you. It can take a few minutes.";

/**
 * "Email me a new link" from a used, expired or superseded link: when the token is one we issued,
 * for a signer of a package still open, and no new link was asked with it in the last minute, a new
 * link is mailed to the address on file (never one typed by the visitor). The caller shows
 * NEW_LINK_ANSWER in every case, so the page tells nothing about the token or the address. Requests
 * per client address are counted in the auth throttle table.
 */
export async function requestNewAccessLink(db: Db, options: { token: string; clientIp: string; now?: Date }): Promise<void> {
  const now = options.now ?? new Date();
  const rules = newLinkClientRules(options.clientIp);
  if ((await checkAuthThrottle(db, { rules, now })).refused) return;
  // Every request counts against the client (a client cycling through guessed tokens locks itself).
  await recordAuthFailure(db, { rules, now });
  if (!isOpaqueTokenShape(options.token)) return;
  await db.transaction(async (tx) => {
    const since = new Date(now.getTime() - SIGNER_RESEND_INTERVAL_MS);
    const [row] = await tx
      .update(signerAccessLinks)
      .set({ renewRequestedAt: now })
      .where(
        and(
          eq(signerAccessLinks.tokenHash, sha256Hex(options.token)),
          or(isNull(signerAccessLinks.renewRequestedAt), lt(signerAccessLinks.renewRequestedAt, since)),
        ),
      )
      .returning({ signerId: signerAccessLinks.signerId, packageId: signerAccessLinks.packageId });
    if (!row) return;
    const [target] = await tx
      .select({ signing: signingPackages, signer: packageSigners })
      .from(signingPackages)
      .innerJoin(packageSigners, eq(packageSigners.packageId, signingPackages.id))
      .where(
        and(
          eq(signingPackages.id, row.packageId),
          eq(packageSigners.id, row.signerId),
          or(eq(signingPackages.status, "sent"), eq(signingPackages.status, "in_progress"), eq(signingPackages.status, "completed")),
          or(isNull(signingPackages.expiresAt), gt(signingPackages.expiresAt, now)),
        ),
      )
      .limit(1);
    if (!target) return;
    // Only one "new link" mail per signer a minute, whichever of their old links asked.
    const asked = await tx
      .select({ id: signerAccessLinks.id })
      .from(signerAccessLinks)
      .where(and(eq(signerAccessLinks.signerId, target.signer.id), gt(signerAccessLinks.renewRequestedAt, since)))
      .limit(2);
    if (asked.length > 1) return;
    const linkId = await issueAccessLinkId(tx, { signing: target.signing, signerId: target.signer.id, now });
    // Rendered, with the link's URL, when the job sends it (no link in the payload).
    await enqueueJob(tx, sendEmailDeclaration, { message: "signer-new-link", linkId });
  });
}
