import type { SignerProofMethod } from "@/db/schema";
import { BadRequest } from "@/lib/errors";

/** What a signer's proof of identity needs from the sender, per signer: the code or the number given. */
export type SignerProofFacts = {
  name: string;
  /** The signer's own method; null or undefined follows the package's. */
  authMethod?: SignerProofMethod | null;
  /** An access code is set (stored as a hash) or given with this request. */
  hasAccessCode: boolean;
  /** A mobile number is on file or given with this request. */
  hasPhone: boolean;
};

export type SignerProofGap = { index: number; field: "accessCode" | "phone"; message: string };

export const ACCESS_CODE_NEEDED = "Enter an access code: this signer proves who they are with a code you give them.";
export const PHONE_NEEDED = "Enter a mobile number (E.164, e.g. +15125550123): this signer gets a code by text message.";

/**
 * The signers whose method cannot work yet: `access_code` without a code, `sms_code` without a
 * mobile number (a signer without them could never get past the proof step). The one rule for the
 * package form, `/v1` creates, bulk CSV rows and sending.
 */
export function signerProofGaps(packageMethod: SignerProofMethod, signers: SignerProofFacts[]): SignerProofGap[] {
  const gaps: SignerProofGap[] = [];
  signers.forEach((signer, index) => {
    const method = signer.authMethod ?? packageMethod;
    if (method === "access_code" && !signer.hasAccessCode) gaps.push({ index, field: "accessCode", message: ACCESS_CODE_NEEDED });
    if (method === "sms_code" && !signer.hasPhone) gaps.push({ index, field: "phone", message: PHONE_NEEDED });
  });
  return gaps;
}

/** 400 naming the first signer whose method cannot work yet (see `signerProofGaps`). */
export function assertSignerProofComplete(packageMethod: SignerProofMethod, signers: SignerProofFacts[], doing: string): void {
  const [gap] = signerProofGaps(packageMethod, signers);
  if (!gap) return;
  const who = signers[gap.index]!.name;
  throw BadRequest(
    gap.field === "accessCode"
      ? `${who} proves who they are with an access code, but none is set: give one before ${doing}.`
      : `${who} gets a code by text message, but has no mobile number: give one before ${doing}.`,
  );
}
