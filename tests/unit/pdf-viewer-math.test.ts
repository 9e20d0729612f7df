import { describe, expect, it } from "vitest";
import {
  clampScale,
  fitWidthScale,
  mostVisiblePage,
  pagesToRender,
  parsePageJump,
  stepZoom,
  zoomPercent,
} from "@/components/pdf-viewer/viewer-math";

describe("pdf viewer layout arithmetic", () => {
  it("renders the visible page ± 2, clipped to the document", () => {
    expect(pagesToRender(1, 20)).toEqual([1, 2, 3]);
    expect(pagesToRender(10, 20)).toEqual([8, 9, 10, 11, 12]);
    expect(pagesToRender(20, 20)).toEqual([18, 19, 20]);
    expect(pagesToRender(1, 1)).toEqual([1]);
  });

  it("fits a US Letter page (612 pt) to a 390 px phone and a 1280 px desktop column", () => {
    expect(fitWidthScale(358, 612, 8)).toBeCloseTo(342 / 612, 6);
    expect(fitWidthScale(1200, 612)).toBeCloseTo(1200 / 612, 6);
    expect(fitWidthScale(0, 612)).toBeCloseTo(4 / 3, 6);
    expect(fitWidthScale(20000, 612)).toBe(5);
  });

  it("zooms in and out along fixed steps from any scale, within the limits", () => {
    expect(zoomPercent(stepZoom(4 / 3, "in"))).toBe(110);
    expect(zoomPercent(stepZoom(4 / 3, "out"))).toBe(90);
    expect(zoomPercent(stepZoom(0.83 * (4 / 3), "in"))).toBe(90);
    expect(stepZoom(5, "in")).toBe(5);
    expect(stepZoom(0.25, "out")).toBe(0.25);
    expect(clampScale(Number.NaN)).toBeCloseTo(4 / 3, 6);
  });

  it("accepts a page jump only for a whole page number in the document", () => {
    expect(parsePageJump(" 3 ", 20)).toBe(3);
    expect(parsePageJump("20", 20)).toBe(20);
    for (const bad of ["0", "21", "2.5", "-1", "", "abc", "1e1", "9999999"]) expect(parsePageJump(bad, 20)).toBeNull();
  });

  it("takes the page covering most of the viewport as the current page", () => {
    expect(mostVisiblePage(new Map([[3, 120], [4, 500]]), 1)).toBe(4);
    expect(mostVisiblePage(new Map([[5, 300], [4, 300]]), 1)).toBe(4);
    expect(mostVisiblePage(new Map([[2, 0]]), 7)).toBe(7);
    expect(mostVisiblePage(new Map(), 1)).toBe(1);
  });
});
