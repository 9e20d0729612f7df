import type { SmsKind } from "@/db/schema";

export type SmsLocale = "en" | "es";

/**
 * What each text to a signer says, per language. Short (one or two SMS segments with the link),
 * plain characters only (no curly quotes or dashes, which would force the longer UCS-2 encoding),
 * the lender's name first, then the link, then how to stop. Never a document's name or content, nor
 * the package title: a text can be read on a lock screen by anyone.
 */
const TEXTS: Record<SmsLocale, Record<SmsKind, string> & { stop: string }> = {
  en: {
    invitation: "{lender}: you have documents to review and sign.",
    your_turn: "{lender}: it is your turn to sign your documents.",
    reminder: "{lender}: reminder, your documents are waiting for your signature.",
    stop: "Reply STOP to stop texts.",
  },
  es: {
    invitation: "{lender}: tiene documentos para revisar y firmar.",
    your_turn: "{lender}: ya puede firmar sus documentos.",
    reminder: "{lender}: recordatorio, sus documentos esperan su firma.",
    stop: "Responda STOP para no recibir mas textos.",
  },
};

/** The lender's name as a text shows it: plain characters, at most 40 of them (cut at a word when longer). */
export function smsLenderName(displayName: string): string {
  const plain = displayName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  if (plain.length <= 40) return plain || "Your lender";
  const cut = plain.slice(0, 41);
  const space = cut.lastIndexOf(" ");
  return (space >= 20 ? cut.slice(0, space) : plain.slice(0, 40)).trimEnd();
}

/** One text to a signer: "<Lender>: <what>. <link> Reply STOP to stop texts." */
export function signerSmsText(data: { kind: SmsKind; lenderName: string; link: string; locale?: SmsLocale }): string {
  const texts = TEXTS[data.locale ?? "en"];
  return `${texts[data.kind].replace("{lender}", smsLenderName(data.lenderName))} ${data.link} ${texts.stop}`;
}
