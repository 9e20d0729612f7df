import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { attachmentRequests, packageSigners, signerAccessLinks, signerAttachments, signerAuthChallenges, signingPackages } from "@/db/schema";
import { borrowerEmailBranding } from "@/lib/branding/borrower-email-branding";
import { organizationDefaultLanguage, signerLocale } from "@/lib/i18n/signer-locale";
import { accessLinkUrlOf } from "./issue-access-link";
import { challengeCode } from "@/lib/security/secrets";
import type { Email } from "@/lib/email/send-email";
import { attachmentRejectedEmail } from "@/lib/email/templates/attachment-rejected-email";
import type { SignerEmailPayload } from "@/lib/email/send-email-payload";
import { completedEmail } from "@/lib/email/templates/completed-email";
import { inviteEmail } from "@/lib/email/templates/invite-email";
import { newAccessLinkEmail } from "@/lib/email/templates/new-access-link-email";
import { reminderEmail } from "@/lib/email/templates/reminder-email";
import { signerCodeEmail } from "@/lib/email/templates/signer-code-email";
import { yourTurnEmail } from "@/lib/email/templates/your-turn-email";


/**
 * Renders a signer email from ids at send time: the signer's address, language and lender branding
 * as they are now, the link or code computed from its row. Null when the row is gone (the package was
 * deleted): there is nothing to send.
 */
export async function renderSignerEmail(db: Db, payload: SignerEmailPayload): Promise<Email | null> {
  const target =
    payload.message === "signer-code"
      ? await db
          .select({ signer: packageSigners, signing: signingPackages })
          .from(signerAuthChallenges)
          .innerJoin(packageSigners, eq(packageSigners.id, signerAuthChallenges.signerId))
          .innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId))
          .where(eq(signerAuthChallenges.id, payload.challengeId))
      : await db
          .select({ signer: packageSigners, signing: signingPackages })
          .from(signerAccessLinks)
          .innerJoin(packageSigners, eq(packageSigners.id, signerAccessLinks.signerId))
          .innerJoin(signingPackages, eq(signingPackages.id, signerAccessLinks.packageId))
          .where(eq(signerAccessLinks.id, payload.linkId));
  const row = target[0];
  if (!row) return null;
  const { signer, signing } = row;
  const brand = await borrowerEmailBranding(db, signing.organizationId);
  const locale = signerLocale(signer, await organizationDefaultLanguage(db, signing.organizationId));
  const common = { signerName: signer.name, signingTitle: signing.title, branding: brand?.branding, locale };
  let rendered;
  if (payload.message === "signer-code") {
    rendered = signerCodeEmail({ ...common, code: challengeCode(payload.challengeId) });
  } else {
    const link = accessLinkUrlOf(payload.linkId);
    switch (payload.message) {
      case "signer-invitation":
        rendered = inviteEmail({ ...common, message: signing.message, link });
        break;
      case "signer-your-turn":
        rendered = yourTurnEmail({ ...common, link });
        break;
      case "signer-new-link":
        rendered = newAccessLinkEmail({ ...common, link });
        break;
      case "signer-reminder":
        rendered = reminderEmail({ ...common, senderName: payload.senderName ?? "", link, expiresAt: signing.expiresAt });
        break;
      case "signer-completed":
        rendered = completedEmail({ recipientName: signer.name, signingTitle: signing.title, link, branding: brand?.branding, locale });
        break;
      case "signer-attachment-rejected": {
        const [rejected] = payload.attachmentId
          ? await db
              .select({ requestName: attachmentRequests.name, reason: signerAttachments.rejectReason })
              .from(signerAttachments)
              .innerJoin(attachmentRequests, eq(attachmentRequests.id, signerAttachments.requestId))
              .where(eq(signerAttachments.id, payload.attachmentId))
          : [];
        if (!rejected) return null;
        rendered = attachmentRejectedEmail({ ...common, requestName: rejected.requestName, reason: rejected.reason ?? "", link });
        break;
      }
    }
  }
  return { to: signer.email, ...rendered, ...brand?.sender };
}
