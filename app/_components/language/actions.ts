"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { safeReturnPath } from "@/lib/auth/safe-return-path";
import { getEnv } from "@/lib/env";
import { isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";

const ONE_YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The borrower's language switcher: remembers the choice in a cookie (a year, this browser) and
 * reloads the page it came from. A plain form post, so it works before the page hydrates. An
 * unknown language changes nothing; `returnTo` must be a path of this site.
 */
export async function switchLanguageAction(formData: FormData): Promise<void> {
  const locale = formData.get("locale");
  if (isLocale(locale)) {
    (await cookies()).set(LOCALE_COOKIE, locale, {
      httpOnly: true,
      sameSite: "lax",
      secure: new URL(getEnv().APP_URL).protocol === "https:",
      path: "/",
      maxAge: ONE_YEAR_SECONDS,
    });
  }
  redirect(safeReturnPath(formData.get("returnTo")));
}
