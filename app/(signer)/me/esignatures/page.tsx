import type { Metadata } from "next";
import Link from "next/link";
import { getTranslations } from "next-intl/server";
import { z } from "zod";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { AppError } from "@/lib/errors";
import { getSignedDocumentLabels } from "@/lib/esignatures/get-signed-document-labels";
import { listMyESignatures } from "@/lib/esignatures/list-my-esignatures";
import { requirePrincipal } from "../../../_lib/require-principal";
import { formatDateTime } from "@/lib/format";
import { focusRing } from "@/components/ui/classes";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await borrowerLocale(), namespace: "myESignatures" });
  return { title: t("title") };
}

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

const PAGE_SIZE = 25;
const CursorSchema = z.string().max(200).optional().catch(undefined);
const linkClass = `font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`;

/** My records: every e-signature the signed-in person recorded, newest first (`listMyESignatures`). */
export default async function MyESignaturesPage({ searchParams }: Props) {
  const { db, principal } = await requirePrincipal("/me/esignatures");
  const cursor = CursorSchema.parse((await searchParams).cursor);
  let page;
  let badCursor = false;
  try {
    page = await listMyESignatures(db, { principal, limit: PAGE_SIZE, cursor });
  } catch (error) {
    // A hand-edited `?cursor=`: start again from the newest rather than failing.
    if (!(error instanceof AppError && error.code === "bad_request")) throw error;
    badCursor = true;
    page = await listMyESignatures(db, { principal, limit: PAGE_SIZE });
  }
  // Not tied to one package: the borrower's own choice (the switcher's cookie), else English.
  const locale = await borrowerLocale();
  const t = await getTranslations({ locale, namespace: "myESignatures" });
  const labels = await getSignedDocumentLabels(db, { principal, documentIds: page.rows.map((r) => r.documentId) });

  return (
    <div lang={locale} className="space-y-6">
      <LanguageSwitcher locale={locale} returnTo="/me/esignatures" />
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{t("title")}</h1>
      <p className="text-sm text-slate-700">{t("intro")}</p>
      {badCursor ? (
        <p role="status" className="text-sm text-slate-700">
          {t("badCursor")}
        </p>
      ) : null}
      {page.rows.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-sm text-slate-700">
          {t.rich("empty", {
            link: (chunks) => (
              <Link href="/" className={linkClass}>
                {chunks}
              </Link>
            ),
          })}
        </p>
      ) : (
        <ul aria-label={t("list")} className="space-y-3">
          {page.rows.map((e) => {
            const label = labels.get(e.documentId);
            return (
              <li key={e.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
                <p className="font-medium break-words text-slate-900">{label?.documentName ?? t("document")}</p>
                <p className="text-sm break-words text-slate-700">
                  {label ? (
                    <Link href={`/signings/${label.packageId}`} className={linkClass}>
                      {label.packageTitle}
                    </Link>
                  ) : null}
                </p>
                <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
                  <dt className="text-slate-700">{t("signed")}</dt>
                  <dd className="text-slate-900">
                    <time dateTime={e.createdAt.toISOString()}>{formatDateTime(e.createdAt, "medium", locale)}</time>
                  </dd>
                  <dt className="text-slate-700">{t("signature")}</dt>
                  <dd className="break-words text-slate-900">{e.kind === "typed" ? t("typed", { text: e.typedText ?? "" }) : t("drawn")}</dd>
                  <dt className="text-slate-700">{t("fingerprint")}</dt>
                  <dd className="font-mono text-xs break-all text-slate-900" title={t("fingerprintTitle")}>
                    {e.documentSha256}
                  </dd>
                </dl>
              </li>
            );
          })}
        </ul>
      )}
      {page.nextCursor ? (
        <p>
          <Link href={`/me/esignatures?cursor=${encodeURIComponent(page.nextCursor)}`} className={linkClass}>
            {t("older")}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
