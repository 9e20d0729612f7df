import type { Locale } from "@/lib/i18n/locales";
import { borrowerTranslator } from "@/lib/i18n/translator";
import type { PackageSealView } from "@/lib/seals/get-package-seal";
import { focusRing, linkClass } from "@/components/ui/classes";

type Props = {
  packageId: string;
  /** `getPackageSeal(db, { packageId })`; null before the package completes (nothing is shown). */
  seal: PackageSealView | null;
  /** Managers see why a seal failed; signers are only told it is being retried. */
  audience: "signer" | "manager";
  headingLevel?: 2 | 3;
  /** The page's language (a signer's done page); the manager's console is English. */
  locale?: Locale;
};

const buttonLinkClass =
  `inline-flex items-center justify-center gap-2 rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-2 text-sm font-semibold text-white shadow-sm hover:brightness-90 ${focusRing}`;

/** Where the session routes serve a sealed file: a document id, `certificate`, or `all` (ZIP). */
export function sealedFileUrl(packageId: string, file: string): string {
  return `/signings/${packageId}/sealed/${encodeURIComponent(file)}`;
}

/**
 * The sealed copies of a completed package, for its signers (done page) and managers (package
 * detail): each sealed PDF, the certificate of completion and "Download all" as one ZIP — or, while
 * sealing runs or is being retried, a status line saying so. A server component; plain links, since
 * the files come from route handlers.
 */
export function SealedDownloads({ packageId, seal, audience, headingLevel = 2, locale = "en" }: Props) {
  if (!seal) return null;
  const t = borrowerTranslator(locale, "sealed");
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const headingId = `sealed-downloads-${packageId}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:p-6" data-testid="sealed-downloads">
      <Heading id={headingId} className="text-lg font-semibold text-slate-900">
        {t("heading")}
      </Heading>
      {seal.status === "sealed" ? (
        <>
          <p className="mt-1 text-sm text-slate-700">
            {t("intro")}
          </p>
          <ul className="mt-3 divide-y divide-slate-100">
            {seal.documents.map((d) => (
              <li key={d.documentId} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="min-w-0 break-words text-slate-900">
                  {d.name}
                  {d.transferable ? <span className="block text-xs text-slate-700">{t("transferableCopy")}</span> : null}
                </span>
                <a href={sealedFileUrl(packageId, d.documentId)} className={`${linkClass} text-sm`} download>
                  {t("downloadSealed")}
                  <span className="sr-only"> {t("ofDocument", { name: d.name })}</span>
                </a>
              </li>
            ))}
            <li className="flex flex-wrap items-center justify-between gap-2 py-2">
              <span className="text-slate-900">{t("certificate")}</span>
              <a href={sealedFileUrl(packageId, "certificate")} className={`${linkClass} text-sm`} download>
                {t("downloadCertificate")}
              </a>
            </li>
          </ul>
          <p className="mt-3">
            <a href={sealedFileUrl(packageId, "all")} className={buttonLinkClass} download>
              {t("downloadAll")}
            </a>
          </p>
        </>
      ) : seal.status === "failed" && audience === "manager" ? (
        <div role="status" className="mt-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900">
          <p className="font-medium">Sealing failed {seal.attempts === 1 ? "once" : `${seal.attempts} times`}; it is retried automatically.</p>
          {seal.lastError ? <p className="mt-1 break-words">Last error: {seal.lastError}</p> : null}
        </div>
      ) : (
        <p role="status" className="mt-2 text-sm text-slate-700">
          {t("preparing")}
        </p>
      )}
    </section>
  );
}
