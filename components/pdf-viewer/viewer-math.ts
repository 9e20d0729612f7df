// Pure layout arithmetic of the PDF viewer: which pages to render, fit-width and zoom steps, page jumps.

/** pdf.js draws at 1 CSS pixel per PDF point at scale 1; "100 %" in viewers means 96 dpi, i.e. 96/72. */
export const CSS_UNITS = 96 / 72;

export const MIN_SCALE = 0.25;
export const MAX_SCALE = 5;

/** Zoom steps as multiples of CSS_UNITS ("50 %", "75 %", …). */
const ZOOM_STEPS = [0.25, 0.33, 0.5, 0.67, 0.75, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2, 2.5, 3, 3.5];

/** Pages `current - radius … current + radius`, clipped to 1…count. */
export function pagesToRender(current: number, count: number, radius = 2): number[] {
  const first = Math.max(1, current - radius);
  const last = Math.min(count, current + radius);
  const pages: number[] = [];
  for (let n = first; n <= last; n++) pages.push(n);
  return pages;
}

/** The scale at which a page `pageWidth` points wide fills `containerWidth` CSS pixels minus `gutter` on each side. */
export function fitWidthScale(containerWidth: number, pageWidth: number, gutter = 0): number {
  if (!(containerWidth > 0) || !(pageWidth > 0)) return CSS_UNITS;
  return clampScale((containerWidth - 2 * gutter) / pageWidth);
}

export function clampScale(scale: number): number {
  if (!Number.isFinite(scale)) return CSS_UNITS;
  return Math.min(MAX_SCALE, Math.max(MIN_SCALE, scale));
}

/** The next zoom step above (`in`) or below (`out`) `scale`, so a fit-width scale like 0.83 goes to 0.9 then 1. */
export function stepZoom(scale: number, direction: "in" | "out"): number {
  const steps = ZOOM_STEPS.map((s) => s * CSS_UNITS);
  const epsilon = 1e-3;
  const next = direction === "in" ? steps.find((s) => s > scale + epsilon) : [...steps].reverse().find((s) => s < scale - epsilon);
  return clampScale(next ?? (direction === "in" ? MAX_SCALE : MIN_SCALE));
}

/** The zoom a person reads: 100 % is 96 dpi. */
export function zoomPercent(scale: number): number {
  return Math.round((scale / CSS_UNITS) * 100);
}

/** A typed page number, or null when it is not a whole number in 1…count. */
export function parsePageJump(input: string, count: number): number | null {
  const text = input.trim();
  if (!/^\d{1,6}$/.test(text)) return null;
  const page = Number(text);
  return page >= 1 && page <= count ? page : null;
}

/**
 * The page a person is reading: the one covering most of the viewport (its visible height in pixels),
 * the lowest page number on a tie, or `fallback` when none is visible.
 */
export function mostVisiblePage(visibleHeights: ReadonlyMap<number, number>, fallback: number): number {
  let best = fallback;
  let bestHeight = 0;
  for (const [page, height] of [...visibleHeights].sort((a, b) => a[0] - b[0])) {
    if (height > bestHeight + 0.5) {
      best = page;
      bestHeight = height;
    }
  }
  return best;
}
