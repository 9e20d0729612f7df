import { buildEmail, type EmailMessage } from "./email-message";

export type MemberInviteEmailData = {
  recipientName: string;
  recipientEmail: string;
  inviterName: string;
  organizationName: string;
  role: string;
  signInUrl: string;
  /** A one-time link to choose a password, when the invited local user has none yet. */
  passwordLink?: { url: string; expiresAt: Date };
};

/** Invites someone into a workspace (organization) with a role. */
export function memberInviteEmail(data: MemberInviteEmailData): EmailMessage {
  const signIn = `Sign in at ${data.signInUrl} with this email address (${data.recipientEmail}).`;
  return buildEmail({
    subject: `You're invited to ${data.organizationName}`,
    recipientName: data.recipientName,
    paragraphs: [
      `${data.inviterName} invited you to ${data.organizationName} as ${data.role.replace("_", " ")}.`,
      ...(data.passwordLink
        ? [
            `Choose your password here:\n${data.passwordLink.url}`,
            `The link works once and expires on ${data.passwordLink.expiresAt.toUTCString()}. Then ${signIn.charAt(0).toLowerCase()}${signIn.slice(1)}`,
          ]
        : [signIn]),
    ],
  });
}
