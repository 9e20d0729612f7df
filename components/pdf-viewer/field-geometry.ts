// Screen ↔ PDF conversion for fields drawn over rendered pages. Field rectangles are stored in PDF
// user space relative to the page's CropBox corner (points, y upwards); on screen they are CSS
// pixels from the page's top-left. pdf.js's viewport (`page.getViewport({ scale })`) knows the
// CropBox (`viewBox`), the page's /Rotate and the scale, so both directions go through it.

/** The part of pdf.js's `PageViewport` this module needs. */
export type ViewportLike = {
  viewBox: number[];
  convertToViewportPoint(x: number, y: number): number[];
  convertToPdfPoint(x: number, y: number): number[];
};

/** PDF user space, from the CropBox's bottom-left corner, in points. */
export type PdfRect = { x: number; y: number; width: number; height: number };
/** CSS pixels from the rendered page's top-left corner. */
export type ScreenRect = { left: number; top: number; width: number; height: number };

/** The page's box in unrotated user space (points): what a field must stay inside. */
export function pageBoxOf(viewport: Pick<ViewportLike, "viewBox">): { width: number; height: number } {
  const [x1 = 0, y1 = 0, x2 = 0, y2 = 0] = viewport.viewBox;
  return { width: Math.abs(x2 - x1), height: Math.abs(y2 - y1) };
}

export function pdfRectToScreen(rect: PdfRect, viewport: ViewportLike): ScreenRect {
  const [ox = 0, oy = 0] = viewport.viewBox;
  const [ax = 0, ay = 0] = viewport.convertToViewportPoint(ox + rect.x, oy + rect.y);
  const [bx = 0, by = 0] = viewport.convertToViewportPoint(ox + rect.x + rect.width, oy + rect.y + rect.height);
  return { left: Math.min(ax, bx), top: Math.min(ay, by), width: Math.abs(bx - ax), height: Math.abs(by - ay) };
}

export function screenRectToPdf(rect: ScreenRect, viewport: ViewportLike): PdfRect {
  const a = screenPointToPdf(rect.left, rect.top, viewport);
  const b = screenPointToPdf(rect.left + rect.width, rect.top + rect.height, viewport);
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
}

/** A point on the rendered page (CSS px from its top-left) in PDF user space relative to the CropBox. */
export function screenPointToPdf(left: number, top: number, viewport: ViewportLike): { x: number; y: number } {
  const [ox = 0, oy = 0] = viewport.viewBox;
  const [x = 0, y = 0] = viewport.convertToPdfPoint(left, top);
  return { x: x - ox, y: y - oy };
}

/** Moves (and if it must, shrinks) a rectangle so it lies inside the page box. */
export function clampToPage(rect: PdfRect, page: { width: number; height: number }): PdfRect {
  const width = Math.min(rect.width, page.width);
  const height = Math.min(rect.height, page.height);
  return {
    x: Math.min(Math.max(0, rect.x), page.width - width),
    y: Math.min(Math.max(0, rect.y), page.height - height),
    width,
    height,
  };
}

/** Rounded to hundredths of a point: what is stored and shown in the placement form. */
export function roundRect(rect: PdfRect): PdfRect {
  const r = (n: number) => Math.round(n * 100) / 100;
  return { x: r(rect.x), y: r(rect.y), width: r(rect.width), height: r(rect.height) };
}
