import type { BrandMark } from "@/lib/branding/branding";

export type { BrandMark };

/**
 * The lender's mark at the top of a borrower's page: the uploaded logo (from our origin) or the
 * display name, over a rule in the brand colour. The logo's alt text is the lender's name.
 */
export function BrandHeader({ brand, as: Tag = "div", compact = false }: { brand: BrandMark; as?: "div" | "header"; compact?: boolean }) {
  // `compact`: inside the lender's own site (embedded signing), which already shows its mark.
  return (
    <Tag
      className={compact ? "flex min-h-9 items-center gap-2 border-b-2 bg-white px-4 py-1" : "flex min-h-14 items-center gap-3 border-b-4 bg-white px-4 py-2"}
      style={{ borderBottomColor: brand.color }}
    >
      {brand.logoPath ? (
        // A small, fixed-height image from our own origin; next/image would add nothing here.
        // eslint-disable-next-line @next/next/no-img-element
        <img src={brand.logoPath} alt={brand.displayName} className={`${compact ? "h-6" : "h-10"} w-auto max-w-[60%] object-contain`} />
      ) : (
        <span className={`${compact ? "text-sm" : "text-lg"} font-semibold`} style={{ color: brand.color }}>
          {brand.displayName}
        </span>
      )}
    </Tag>
  );
}
