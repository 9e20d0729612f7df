import { describe, expect, it } from "vitest";
import { relativeTime } from "@/lib/format";
import { auditActionLabel, auditEntrySummary, browserOf, currentGroup, statusSentence } from "@/app/(manager)/signings/_detail/format";
import type { ManagerSigningPage } from "@/lib/views/get-manager-signing-page";

// The words on top of the manager's package page and in its audit table.

type Detail = ManagerSigningPage["detail"];
const now = new Date("2026-03-10T12:00:00Z");

function signer(name: string, routingOrder: number, status: Detail["signers"][number]["status"], extra: Partial<Detail["signers"][number]> = {}) {
  return { id: name, signingId: "p", userId: null, name, email: `${name}@x.test`, role: "signer" as const, routingOrder, status, notifiedAt: null, viewedAt: null, signedAt: null, declinedAt: null, declineReason: null, authMethod: null, hasAccessCode: false, phone: null, smsConsentAt: null, smsConsentByUserId: null, authPassedAt: null, authPassedMethod: null, authFailures: 0, authLockedUntil: null, consentedAt: null, language: null, createdAt: "", updatedAt: "", ...extra };
}

function detail(values: Partial<Detail>): Detail {
  return {
    id: "p", organizationId: 1, companyId: 1, locationId: 1, title: "T", status: "sent", templateId: null, flowId: null, message: null, signerAuthMethod: "email_code",
    createdByUserId: null, sentAt: null, completedAt: null, cancelledAt: null, cancelReason: null, declinedAt: null, expiresAt: null,
    createdAt: "2026-03-01T12:00:00Z", updatedAt: "", signers: [], documents: [], ...values,
  };
}

describe("statusSentence", () => {
  it("names the lowest routing group still to sign, in parallel, and when it was sent", () => {
    const signers = [signer("Sam Signer", 1, "signed"), signer("Casey Cosigner", 2, "notified"), signer("Pat Parallel", 2, "viewed"), signer("Lee Later", 3, "pending")];
    expect(statusSentence(detail({ status: "in_progress", sentAt: "2026-03-08T12:00:00Z", signers }), now)).toBe(
      "Waiting for Casey Cosigner and Pat Parallel — sent 2 days ago.",
    );
    expect(currentGroup(signers).map((s) => s.name)).toEqual(["Casey Cosigner", "Pat Parallel"]);
  });

  it("says who declined and why, why it was cancelled, and that drafts are not sent", () => {
    const declined = detail({ status: "declined", declinedAt: "2026-03-10T11:00:00Z", signers: [signer("Sam Signer", 1, "declined", { declineReason: "Wrong amount" })] });
    expect(statusSentence(declined, now)).toBe("Declined by Sam Signer 1 hour ago — reason: “Wrong amount”.");
    expect(statusSentence(detail({ status: "cancelled", cancelledAt: "2026-03-10T11:59:50Z", cancelReason: "Duplicate" }), now)).toBe(
      "Cancelled just now — reason: “Duplicate”.",
    );
    expect(statusSentence(detail({ status: "cancelled", cancelledAt: "2026-03-09T12:00:00Z" }), now)).toBe("Cancelled yesterday.");
    expect(statusSentence(detail({ status: "draft" }), now)).toBe("Draft — not sent yet. Created last week.");
  });
});

describe("relativeTime and browserOf", () => {
  it("reads times relative to now and user agents as browser and system", () => {
    expect(relativeTime("2026-03-10T11:55:00Z", now)).toBe("5 minutes ago");
    expect(relativeTime("2026-03-13T12:00:00Z", now)).toBe("in 3 days");
    expect(browserOf("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36")).toBe("Chrome 131 on Linux");
    expect(browserOf("Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1")).toBe(
      "Safari 17 on iOS",
    );
    expect(browserOf("Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 Edg/130.0.0.0")).toBe(
      "Edge 130 on Windows",
    );
    expect(browserOf(null)).toBeNull();
  });
});

describe("auditActionLabel and auditEntrySummary", () => {
  it("names the in-person entries and sums up the host and the identification checked", () => {
    expect(auditActionLabel("signer.in_person_started")).toBe("Signing in person started");
    expect(auditActionLabel("signer.in_person_ended")).toBe("Device handed back to the host");
    const started = {
      host: { name: "Max Manager", email: "manager@demo.local" },
      identification: { idType: "drivers_license", idIssuer: "Texas", idLastFour: "4821" },
    };
    expect(auditEntrySummary("signer.in_person_started", started)).toBe(
      "Hosted by Max Manager (manager@demo.local); identification checked: Driver's license, Texas, ending 4821",
    );
    expect(auditEntrySummary("signer.in_person_started", { ...started, via: "api" })).toBe(
      "Hosted by Max Manager (manager@demo.local); identification checked: Driver's license, Texas, ending 4821 (started through the API)",
    );
    expect(auditActionLabel("signer.in_person_url_issued")).toBe("In-person signing URL issued");
    expect(auditEntrySummary("signer.in_person_url_issued", { ...started, expiresAt: "2026-03-10T12:05:00.000Z" })).toBe(
      "Hosted by Max Manager (manager@demo.local); identification checked: Driver's license, Texas, ending 4821",
    );
    expect(auditEntrySummary("signer.in_person_ended", { host: { name: "Max Manager", email: "manager@demo.local" } })).toBe("Hosted by Max Manager (manager@demo.local)");
    expect(auditEntrySummary("signer.auth_passed", { method: "in_person", userAgent: null })).toBe("By In person (identification checked by the host)");
  });

  it("names the embedded entries and sums up the origins and who issued the URL", () => {
    expect(auditActionLabel("signer.embedded_url_issued")).toBe("Embedded signing URL issued");
    expect(auditActionLabel("signer.embedded_session_started")).toBe("Signer opened embedded signing");
    expect(auditActionLabel("settings.embed_origins_updated")).toBe("Sites allowed to frame signing changed");
    expect(auditEntrySummary("signer.embedded_url_issued", { expiresAt: "2026-03-10T12:05:00.000Z" })).toBe("Single use, can be opened until Mar 10, 2026, 12:05 PM UTC");
    expect(
      auditEntrySummary("signer.embedded_session_started", {
        origins: ["https://portal.lender.test", "https://app.lender.test"],
        issuedBy: { userId: "u", name: "Max Manager", email: "manager@demo.local" },
      }),
    ).toBe("Inside https://portal.lender.test and https://app.lender.test; URL issued by Max Manager (manager@demo.local)");
    // Entries written before the issuer was recorded name none.
    expect(auditEntrySummary("signer.embedded_session_started", { origins: ["https://portal.lender.test"], issuedBy: null })).toBe("Inside https://portal.lender.test");
    expect(auditEntrySummary("settings.embed_origins_updated", { origins: [] })).toBe("Now none");
  });

  it("says nothing for other entries or what it cannot read, and shows an unknown action as recorded", () => {
    expect(auditEntrySummary("signer.signed", { host: { name: "X" } })).toBeNull();
    expect(auditEntrySummary("signer.in_person_started", null)).toBeNull();
    expect(auditEntrySummary("signer.in_person_started", { host: 3, identification: "x" })).toBeNull();
    expect(auditEntrySummary("signer.embedded_session_started", { origins: "nope" })).toBeNull();
    expect(auditActionLabel("signer.something_new")).toBe("signer.something_new");
  });
});
