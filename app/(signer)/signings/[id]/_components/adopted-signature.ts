import { SIGNATURE_FONTS, type SignatureFont } from "@/lib/signature-images/signature-fonts";

export type AdoptedSignature = { kind: "typed"; text: string; font: SignatureFont } | { kind: "drawn"; imageDataUrl: string };

const storageKey = (signingId: string) => `csig:adopted-signature:${signingId}`;

/**
 * The signature adopted for this package in this tab (sessionStorage), so a reload — e.g. after
 * the lender replaced a document — does not ask for it again. Anything unreadable counts as none.
 */
export function loadAdoptedSignature(signingId: string): AdoptedSignature | null {
  try {
    const value: unknown = JSON.parse(sessionStorage.getItem(storageKey(signingId)) ?? "null");
    if (!value || typeof value !== "object") return null;
    const v = value as Record<string, unknown>;
    if (v.kind === "typed" && typeof v.text === "string" && (SIGNATURE_FONTS as readonly unknown[]).includes(v.font)) {
      return { kind: "typed", text: v.text, font: v.font as SignatureFont };
    }
    if (v.kind === "drawn" && typeof v.imageDataUrl === "string" && v.imageDataUrl.startsWith("data:image/png;base64,")) {
      return { kind: "drawn", imageDataUrl: v.imageDataUrl };
    }
  } catch {
    // Storage disabled or a foreign value: adopt again.
  }
  return null;
}

export function storeAdoptedSignature(signingId: string, signature: AdoptedSignature): void {
  try {
    sessionStorage.setItem(storageKey(signingId), JSON.stringify(signature));
  } catch {
    // Storage full or disabled: the signature still holds for this page view.
  }
}
