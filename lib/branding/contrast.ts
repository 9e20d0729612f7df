/**
 * WCAG 2.x contrast, for the organization's brand colour. The colour is used as the background of
 * primary buttons (white text on it) and as the colour of links and headings on white pages, so
 * both uses need the AA ratio for normal text, 4.5:1, against white.
 */
export const AA_NORMAL_TEXT = 4.5;

/** `#rrggbb` → its relative luminance (0 for black, 1 for white). */
export function relativeLuminance(hex: string): number {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) throw new TypeError(`expected a #rrggbb colour, got ${JSON.stringify(hex)}`);
  const [r, g, b] = match.slice(1).map((part) => {
    const c = Number.parseInt(part, 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, from 1 (same) to 21 (black on white). */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/**
 * Why a brand colour cannot be used, in words a manager can act on, or null when it reads well:
 * white button text on it and the colour as text on white both need 4.5:1.
 */
export function brandColorProblem(hex: string): string | null {
  const ratio = contrastRatio(hex, "#ffffff");
  if (ratio >= AA_NORMAL_TEXT) return null;
  return (
    `${hex} is too light to read: white button text on it, and links in it on a white page, reach only ` +
    `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1 contrast, and borrowers need at least 4.5:1 (WCAG AA). ` +
    "Choose a darker shade."
  );
}
