/** Fonts a typed signature may be rendered in; the UI offers exactly these. */
export const SIGNATURE_FONTS = ["dancing-script", "great-vibes", "caveat", "homemade-apple"] as const;

export type SignatureFont = (typeof SIGNATURE_FONTS)[number];
