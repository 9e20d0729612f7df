import { PDFDocument, degrees } from "pdf-lib";
import { beforeAll, describe, expect, it } from "vitest";
import { clampToPage, pageBoxOf, pdfRectToScreen, screenPointToPdf, screenRectToPdf, type ViewportLike } from "@/components/pdf-viewer/field-geometry";

// Field rectangles go through pdf.js's own PageViewport (the one the viewer renders with), built
// here from real PDFs: a plain Letter page, a page with a CropBox offset, and a rotated page.

let viewports: (scale: number) => Promise<(ViewportLike & { width: number; height: number })[]>;

beforeAll(async () => {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]);
  const cropped = pdf.addPage([612, 792]);
  cropped.setCropBox(20, 30, 500, 700);
  const rotated = pdf.addPage([612, 792]);
  rotated.setCropBox(20, 30, 500, 700);
  rotated.setRotation(degrees(90));
  const bytes = await pdf.save();
  const pdfjs = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false, useSystemFonts: false }).promise;
  const pages = await Promise.all([1, 2, 3].map((n) => doc.getPage(n)));
  viewports = async (scale) => pages.map((p) => p.getViewport({ scale }));
});

const near = (actual: Record<string, number>, expected: Record<string, number>) => {
  for (const [key, value] of Object.entries(expected)) expect(actual[key], key).toBeCloseTo(value, 6);
};

describe("field geometry through pdf.js viewports", () => {
  it("places a field on a plain page: y flips, everything scales", async () => {
    const [plain] = await viewports(2);
    // 56 pt from the left, 100 pt up from the bottom, 180 × 40 pt; at 2 px/pt on a 792 pt high page.
    near(pdfRectToScreen({ x: 56, y: 100, width: 180, height: 40 }, plain!), { left: 112, top: (792 - 140) * 2, width: 360, height: 80 });
    near(screenPointToPdf(0, 0, plain!), { x: 0, y: 792 });
    expect(pageBoxOf(plain!)).toEqual({ width: 612, height: 792 });
  });

  it("measures from the CropBox corner, not the MediaBox", async () => {
    const [, cropped] = await viewports(1);
    expect(pageBoxOf(cropped!)).toEqual({ width: 500, height: 700 });
    // The crop box's bottom-left corner is (0, 0): on screen, the bottom-left of the rendered page.
    near(pdfRectToScreen({ x: 0, y: 0, width: 10, height: 10 }, cropped!), { left: 0, top: 690, width: 10, height: 10 });
    near(screenPointToPdf(0, 700, cropped!), { x: 0, y: 0 });
  });

  it("follows /Rotate 90: user x runs down the screen, user y to the right", async () => {
    const [, , rotated] = await viewports(2);
    expect([rotated!.width, rotated!.height]).toEqual([1400, 1000]);
    near(pdfRectToScreen({ x: 50, y: 100, width: 200, height: 40 }, rotated!), { left: 200, top: 100, width: 80, height: 400 });
  });

  it("round-trips screen → PDF → screen at any zoom", async () => {
    for (const scale of [0.5, 1, 4 / 3, 2.75]) {
      for (const viewport of await viewports(scale)) {
        const rect = { x: 12.5, y: 40.25, width: 120, height: 33 };
        near(screenRectToPdf(pdfRectToScreen(rect, viewport), viewport), rect);
      }
    }
  });

  it("keeps a dragged field inside the page, shrinking only what cannot fit", () => {
    expect(clampToPage({ x: -5, y: 780, width: 100, height: 30 }, { width: 612, height: 792 })).toEqual({ x: 0, y: 762, width: 100, height: 30 });
    expect(clampToPage({ x: 10, y: 10, width: 700, height: 30 }, { width: 612, height: 792 })).toEqual({ x: 0, y: 10, width: 612, height: 30 });
  });
});
