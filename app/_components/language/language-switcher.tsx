import { getTranslations } from "next-intl/server";
import { focusRing } from "@/components/ui/classes";
import type { Locale } from "@/lib/i18n/locales";
import { switchLanguageAction } from "./actions";

/**
 * "Ver esta página en español" / "View this page in English" on a borrower's page: one button, written
 * in the language it switches to (with its `lang`, so screen readers pronounce it right). A form post
 * to a server action: it works before hydration and without JavaScript.
 */
export async function LanguageSwitcher({ locale, returnTo }: { locale: Locale; returnTo: string }) {
  const other: Locale = locale === "es" ? "en" : "es";
  const t = await getTranslations({ locale, namespace: "language" });
  return (
    <form action={switchLanguageAction} className="flex justify-end">
      <input type="hidden" name="locale" value={other} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        lang={other}
        className={`min-h-11 rounded-md px-2 text-sm font-medium text-blue-800 underline underline-offset-2 hover:text-blue-900 ${focusRing}`}
      >
        {t("switchTo")}
      </button>
    </form>
  );
}
