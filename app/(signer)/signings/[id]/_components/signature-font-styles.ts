import type { SignatureFont } from "@/lib/signature-images/signature-fonts";

/**
 * The CSS family of each allowed signature font. The faces are self-hosted from @fontsource
 * (imported by the sign panel), so they pass the CSP's `font-src 'self'` and render the same
 * everywhere; a browser fetches a face only when text uses it.
 */
export const SIGNATURE_FONT_STYLES: Record<SignatureFont, { label: string; fontFamily: string }> = {
  "dancing-script": { label: "Dancing Script", fontFamily: "'Dancing Script', cursive" },
  "great-vibes": { label: "Great Vibes", fontFamily: "'Great Vibes', cursive" },
  caveat: { label: "Caveat", fontFamily: "'Caveat', cursive" },
  "homemade-apple": { label: "Homemade Apple", fontFamily: "'Homemade Apple', cursive" },
};
