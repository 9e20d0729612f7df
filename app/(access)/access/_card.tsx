import type { ReactNode } from "react";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { BrandHeader, type BrandMark } from "@/components/brand/brand-header";
import type { Locale } from "@/lib/i18n/locales";

/**
 * An access page about one lender's package: the lender's mark on top, the language switcher (back to
 * `returnTo`), then the page's card; the brand colour on its buttons.
 */
export function BrandedAccessPage({ brand, locale, returnTo, children }: { brand: BrandMark; locale: Locale; returnTo: string; children: ReactNode }) {
  return (
    <div lang={locale} className="space-y-4" style={{ ["--brand-color" as string]: brand.color }}>
      <div className="overflow-hidden rounded-xl border border-slate-200">
        <BrandHeader brand={brand} />
      </div>
      <LanguageSwitcher locale={locale} returnTo={returnTo} />
      {children}
    </div>
  );
}

/** The one card every access page shows. */
export function AccessCard({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <section aria-labelledby="access-heading" className="space-y-5 rounded-xl border border-slate-200 bg-white p-6 text-base text-slate-800 shadow-sm sm:p-8">
      <h1 id="access-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
        {heading}
      </h1>
      {children}
    </section>
  );
}
