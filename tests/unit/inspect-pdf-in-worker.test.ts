import { afterAll, describe, expect, it } from "vitest";
import { closePdfWorkers, inspectPdfInWorker } from "@/lib/pdf/inspect-pdf-in-worker";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { AppError } from "@/lib/errors";
import { pdfBomb } from "@/tests/helpers/pdf-bomb";

afterAll(() => closePdfWorkers());

describe("inspectPdfInWorker", () => {
  it("counts pages of a real PDF and how far its streams inflate", async () => {
    const pdf = await renderAgreementPdf({ title: "Pages", parties: ["Buyer"], pages: 3 });
    const result = await inspectPdfInWorker(pdf, { loadDocument: true });
    expect(result.pageCount).toBe(3);
    expect(result.inflatedBytes).toBeGreaterThan(0);
  });

  it("refuses streams inflating past the bound with 413 whether or not the document is loaded", async () => {
    for (const loadDocument of [true, false]) {
      const error = await inspectPdfInWorker(pdfBomb({ blocks: 20, blockMiB: 16 }), { loadDocument }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).status).toBe(413);
    }
  });

  it("terminates a parse that overruns its time limit with 400, and the pool serves the next one", async () => {
    const bomb = pdfBomb({ blocks: 40, blockMiB: 16 });
    const error = await inspectPdfInWorker(bomb, { loadDocument: true, timeoutMs: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).message).toMatch(/could not be read within/);
    const pdf = await renderAgreementPdf({ title: "After", parties: ["Buyer"], pages: 2 });
    expect((await inspectPdfInWorker(pdf, { loadDocument: true })).pageCount).toBe(2);
  });

  it("answers 400 for bytes that are not a PDF", async () => {
    const error = await inspectPdfInWorker(new TextEncoder().encode("%PDF-1.7 nothing here"), { loadDocument: true }).catch((e: unknown) => e);
    expect((error as AppError).status).toBe(400);
  });
});
