import { describe, expect, it } from "vitest";
import { signerSmsText, smsLenderName } from "@/lib/sms/signer-sms-text";

const LINK = `https://sign.example.com/access/${"A".repeat(43)}`;

describe("what a text to a signer says", () => {
  it("names the lender first, then the link, then how to stop, in one SMS segment for a usual name", () => {
    const text = signerSmsText({ kind: "invitation", lenderName: "Acme Lending", link: LINK });
    expect(text).toBe(`Acme Lending: you have documents to review and sign. ${LINK} Reply STOP to stop texts.`);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(signerSmsText({ kind: "your_turn", lenderName: "Acme Lending", link: LINK })).toBe(
      `Acme Lending: it is your turn to sign your documents. ${LINK} Reply STOP to stop texts.`,
    );
    expect(signerSmsText({ kind: "reminder", lenderName: "Acme Lending", link: LINK, locale: "es" })).toBe(
      `Acme Lending: recordatorio, sus documentos esperan su firma. ${LINK} Responda STOP para no recibir mas textos.`,
    );
  });

  it("keeps the lender's name to plain characters and 40 of them, cut at a word", () => {
    expect(smsLenderName("Crédito Fácil “Best”  Lending Company of Greater Austin")).toBe("Credito Facil Best Lending Company of");
    expect(smsLenderName("Préstamos 🏠 Núñez")).toBe("Prestamos Nunez");
    expect(smsLenderName("   ")).toBe("Your lender");
    expect(smsLenderName("A".repeat(60))).toBe("A".repeat(40));
  });

  it("uses only characters of the GSM 7-bit alphabet's ASCII part, whatever the name", () => {
    const text = signerSmsText({ kind: "reminder", lenderName: "Société Générale — “Prêts”", link: LINK });
    expect(text).toMatch(/^[\x20-\x7e]+$/);
  });
});
