import type { Metadata } from "next";
import { cache } from "react";
import { getTranslations } from "next-intl/server";
import { LanguageSwitcher } from "@/app/_components/language/language-switcher";
import { borrowerLocale } from "@/app/_lib/borrower-locale";
import { connection } from "next/server";
import { prepareDatabase } from "@/lib/boot";
import { viewAccessLink } from "@/lib/signer-access/open-access-link";
import { AccessCard, BrandedAccessPage } from "../_card";
import { primaryButton, secondaryButton } from "@/components/ui/card-controls";
import { openAccessLinkAction, requestNewAccessLinkAction } from "./actions";

type Props = { params: Promise<{ token: string }> };

/** The link's view, read once per request: the metadata and the page both need it. */
const loadAccessLink = cache(async (token: string) => {
  await connection();
  const { db } = await prepareDatabase();
  return viewAccessLink(db, { token });
});

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { token } = await params;
  const view = await loadAccessLink(token);
  const t = await getTranslations({ locale: await borrowerLocale(view.state === "open" ? view.language : null), namespace: "access" });
  // The token is in the address: never send it on as a Referer, never index the page.
  return { title: t("title"), referrer: "no-referrer", robots: { index: false, follow: false } };
}

/**
 * `/access/<token>`, the link in a signer's emails. The GET only shows the package and one button
 * (mail scanners prefetch links: reading must burn nothing); the button's POST opens the link.
 * A link that cannot be used any more offers "Email me a new link".
 */
export default async function AccessLinkPage({ params }: Props) {
  const { token } = await params;
  const view = await loadAccessLink(token);
  // An unusable link tells nothing about its signer: the borrower's own choice, else English.
  const locale = await borrowerLocale(view.state === "open" ? view.language : null);
  const t = await getTranslations({ locale, namespace: "access" });
  // Switching language reloads this page (the GET burns nothing).
  const switcher = <LanguageSwitcher locale={locale} returnTo={`/access/${encodeURIComponent(token)}`} />;
  if (view.state === "unusable") {
    return (
      <div lang={locale}>
        {switcher}
        <AccessCard heading={t("unusableHeading")}>
          <p>{t("unusableBody")}</p>
          <form action={requestNewAccessLinkAction}>
            <input type="hidden" name="token" value={token} />
            <button type="submit" className={secondaryButton}>
              {t("emailNewLink")}
            </button>
          </form>
        </AccessCard>
      </div>
    );
  }
  return (
    <BrandedAccessPage brand={view.brand} locale={locale} returnTo={`/access/${encodeURIComponent(token)}`}>
      <AccessCard heading={view.title}>
        <p>{t.rich("sentYou", { sender: view.senderName, signer: view.signerName, strong: (chunks) => <strong>{chunks}</strong> })}</p>
        <form action={openAccessLinkAction}>
          <input type="hidden" name="token" value={token} />
          <button type="submit" className={primaryButton}>
            {t("open")}
          </button>
        </form>
        <p className="text-sm text-slate-600">{t("once")}</p>
      </AccessCard>
    </BrandedAccessPage>
  );
}
