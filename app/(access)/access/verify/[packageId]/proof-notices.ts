/** What the proof page says after a step (a fixed key in the address, never the code). */
export const PROOF_NOTICES = {
  wrong: { tone: "error", text: "That code is not right. Check it and try again." },
  expired: { tone: "error", text: "That code has expired. Send yourself a new one." },
  locked: { tone: "error", text: "Too many wrong codes. For your security, try again in 15 minutes." },
  wait: { tone: "error", text: "A code was sent less than a minute ago. Wait a moment before asking for another." },
  sent: { tone: "status", text: "A new code is on its way." },
  sms_off: { tone: "error", text: "Text messages are not available right now. Ask the sender to choose another way for you to prove who you are." },
  account_mismatch: { tone: "error", text: "You are signed in with another email address than the one this package was sent to." },
} as const;

export type ProofNotice = keyof typeof PROOF_NOTICES;

export function isProofNotice(value: unknown): value is ProofNotice {
  return typeof value === "string" && Object.hasOwn(PROOF_NOTICES, value);
}

export function proofPath(packageId: string, notice?: ProofNotice): string {
  return `/access/verify/${encodeURIComponent(packageId)}${notice ? `?notice=${notice}` : ""}`;
}
