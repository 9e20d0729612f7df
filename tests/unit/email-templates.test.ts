import { afterEach, describe, expect, it } from "vitest";
import { setEnvForTests } from "@/lib/env";
import { cancelledEmail } from "@/lib/email/templates/cancelled-email";
import { completedEmail } from "@/lib/email/templates/completed-email";
import { declinedEmail } from "@/lib/email/templates/declined-email";
import { buildEmail, escapeHtml } from "@/lib/email/templates/email-message";
import { expiredEmail } from "@/lib/email/templates/expired-email";
import { inviteEmail } from "@/lib/email/templates/invite-email";
import { memberInviteEmail } from "@/lib/email/templates/member-invite-email";
import { newAccessLinkEmail } from "@/lib/email/templates/new-access-link-email";
import { signerCodeEmail } from "@/lib/email/templates/signer-code-email";
import { signingLink } from "@/lib/email/templates/signing-link";
import { yourTurnEmail } from "@/lib/email/templates/your-turn-email";

afterEach(() => {
  setEnvForTests({});
});

const HOSTILE = `<script>alert("x")</script> & 'quotes'`;
const LINK = "https://sign.example.com/signings/0190a4b2-7c1d-7e00-8000-000000000001";

/** Every template, fed the hostile string wherever a person or a manager controls the text. */
const rendered = {
  invite: inviteEmail({ signerName: HOSTILE, signingTitle: HOSTILE, message: HOSTILE, link: LINK }),
  yourTurn: yourTurnEmail({ signerName: HOSTILE, signingTitle: HOSTILE, link: LINK }),
  cancelled: cancelledEmail({ signerName: HOSTILE, signingTitle: HOSTILE, reason: HOSTILE }),
  expired: expiredEmail({ recipientName: HOSTILE, signingTitle: HOSTILE, expiresAt: new Date("2030-01-02T03:04:05.000Z"), link: LINK }),
  declined: declinedEmail({ recipientName: HOSTILE, signingTitle: HOSTILE, signerName: HOSTILE, reason: HOSTILE, link: LINK }),
  completed: completedEmail({ recipientName: HOSTILE, signingTitle: HOSTILE, link: LINK }),
  memberInvite: memberInviteEmail({
    recipientName: HOSTILE,
    recipientEmail: "nina@example.com",
    inviterName: HOSTILE,
    organizationName: HOSTILE,
    role: "org_admin",
    signInUrl: "https://sign.example.com/sign-in",
    passwordLink: { url: "https://sign.example.com/accept-invite?token=abc_DEF-123", expiresAt: new Date("2030-01-02T03:04:05.000Z") },
  }),
};

describe("email templates", () => {
  it.each(Object.entries(rendered))("%s: HTML escapes every interpolated value; text keeps it verbatim", (_, email) => {
    expect(email.html).not.toContain("<script>");
    expect(email.html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quotes&#39;");
    expect(email.text).toContain(HOSTILE);
    expect(email.text).not.toContain("&lt;");
    expect(email.subject).toContain(HOSTILE);
    expect(email.html.startsWith("<!doctype html>")).toBe(true);
  });

  it.each([
    ["invite", rendered.invite, "Please sign: "],
    ["your turn", rendered.yourTurn, "Ready for your signature: "],
    ["cancelled", rendered.cancelled, "Cancelled: "],
    ["expired", rendered.expired, "Expired: "],
    ["declined", rendered.declined, "Declined: "],
    ["completed", rendered.completed, "Completed: "],
    ["member invite", rendered.memberInvite, "You're invited to "],
  ])("%s: subject names what happened, text greets the recipient", (_, email, prefix) => {
    expect(email.subject).toBe(`${prefix}${HOSTILE}`);
    expect(email.text.startsWith(`Hello ${HOSTILE},\n\n`)).toBe(true);
  });

  it.each([
    ["invite", rendered.invite],
    ["your turn", rendered.yourTurn],
    ["expired", rendered.expired],
    ["declined", rendered.declined],
    ["completed", rendered.completed],
  ])("%s: carries the signing link in the text and as the HTML button", (_, email) => {
    expect(email.text).toContain(LINK);
    expect(email.html).toContain(`<a href="${LINK}"`);
  });

  it("the cancelled notice has no link (nothing is left to open) and a reason only when given", () => {
    expect(rendered.cancelled.html).not.toContain("<a ");
    expect(rendered.cancelled.text).toContain(`Reason: ${HOSTILE}`);
    expect(cancelledEmail({ signerName: "Sam", signingTitle: "Loan", reason: null }).text).toBe(
      'Hello Sam,\n\nThe signing package "Loan" was cancelled and no longer needs your signature.',
    );
  });

  it("the code, new-link and cancelled emails speak the signer's language", () => {
    const code = signerCodeEmail({ signerName: "Lucía", signingTitle: "Préstamo", code: "123456", locale: "es" });
    expect(code.subject).toBe("Su código para Préstamo");
    expect(code.text).toContain('Su código para abrir "Préstamo" es 123456.');
    expect(code.text).toContain("Es válido durante 10 minutos.");
    expect(code.html).toContain('<html lang="es">');
    expect(signerCodeEmail({ signerName: "Sam", signingTitle: "Loan", code: "123456" }).subject).toBe("Your code for Loan");

    const link = newAccessLinkEmail({ signerName: "Lucía", signingTitle: "Préstamo", link: LINK, locale: "es" });
    expect(link.subject).toBe("Su nuevo enlace: Préstamo");
    expect(link.text).toContain('Aquí tiene un nuevo enlace a "Préstamo". Los enlaces anteriores ya no funcionan.');
    expect(link.text).toContain(`Abrir su paquete de firma: ${LINK}`);

    const cancelled = cancelledEmail({ signerName: "Lucía", signingTitle: "Préstamo", reason: "Tasa incorrecta", locale: "es" });
    expect(cancelled.subject).toBe("Cancelado: Préstamo");
    expect(cancelled.text).toContain('El paquete de firma "Préstamo" fue cancelado y ya no necesita su firma.');
    expect(cancelled.text).toContain("Motivo: Tasa incorrecta");
  });

  it("the invitation uses the manager's message, or a default", () => {
    expect(inviteEmail({ signerName: "Sam", signingTitle: "Loan", message: "Bring your ID.", link: LINK }).text).toBe(
      `Hello Sam,\n\nBring your ID.\n\nOpen your signing package: ${LINK}`,
    );
    expect(inviteEmail({ signerName: "Sam", signingTitle: "Loan", message: null, link: LINK }).text).toContain("You have documents to review and sign.");
  });

  it("the expired notice states the deadline in UTC", () => {
    expect(rendered.expired.text).toContain("expired on 2030-01-02T03:04:05.000Z");
  });

  it("the member invite carries the one-time password link when there is one, else only the sign-in address", () => {
    expect(rendered.memberInvite.text).toContain("Choose your password here:\nhttps://sign.example.com/accept-invite?token=abc_DEF-123");
    expect(rendered.memberInvite.text).toContain("expires on Wed, 02 Jan 2030 03:04:05 GMT");
    expect(rendered.memberInvite.text).toContain("as org admin.");
    const plain = memberInviteEmail({
      recipientName: "Nina",
      recipientEmail: "nina@example.com",
      inviterName: "Olive",
      organizationName: "Demo",
      role: "manager",
      signInUrl: "https://sign.example.com/sign-in",
    });
    expect(plain.text).toBe(
      "Hello Nina,\n\nOlive invited you to Demo as manager.\n\nSign in at https://sign.example.com/sign-in with this email address (nina@example.com).",
    );
  });

  it("a subject is one line and at most 500 characters", () => {
    const email = buildEmail({ subject: `Line one\r\nBcc: evil@example.com ${"x".repeat(600)}`, recipientName: "Sam", paragraphs: ["Hi"] });
    expect(email.subject).not.toMatch(/[\r\n]/);
    expect(email.subject.startsWith("Line one Bcc: evil@example.com x")).toBe(true);
    expect(email.subject).toHaveLength(500);
  });

  it("escapeHtml escapes the five significant characters and nothing else", () => {
    expect(escapeHtml(`a&b<c>d"e'f é`)).toBe("a&amp;b&lt;c&gt;d&quot;e&#39;f é");
  });

  it("a link whose URL has markup in it cannot break out of the href attribute", () => {
    const email = buildEmail({ subject: "s", recipientName: "n", paragraphs: [], action: { label: "Go", url: 'https://x.test/"><img src=x>' } });
    expect(email.html).toContain('href="https://x.test/&quot;&gt;&lt;img src=x&gt;"');
    expect(email.html).not.toContain("<img");
  });
});

describe("signingLink", () => {
  it("is {APP_URL}/signings/<id>, whatever trailing slashes APP_URL has", () => {
    setEnvForTests({ APP_URL: "https://sign.example.com//" });
    expect(signingLink("0190a4b2-7c1d-7e00-8000-000000000001")).toBe(LINK);
    setEnvForTests({ APP_URL: "http://localhost:4150/app" });
    expect(signingLink("abc")).toBe("http://localhost:4150/app/signings/abc");
  });
});
