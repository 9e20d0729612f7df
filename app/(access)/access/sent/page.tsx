import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { AccessCard } from "../_card";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await borrowerLocale(), namespace: "access" });
  return { title: t("checkEmail"), robots: { index: false, follow: false } };
}

/**
 * The one answer to "Email me a new link" (the same whether or not the link or the address exists),
 * in the borrower's own language choice, else English: nothing here is tied to a signer.
 */
export default async function NewLinkSentPage() {
  const locale = await borrowerLocale();
  const t = await getTranslations({ locale, namespace: "access" });
  return (
    <div lang={locale}>
      <AccessCard heading={t("checkEmail")}>
        <p role="status">{t("newLinkAnswer")}</p>
      </AccessCard>
    </div>
  );
}
