import type { ReactNode } from "react";
import { cookies } from "next/headers";
import { getTranslations } from "next-intl/server";
import { SiteHeader, type HeaderLink } from "@/components/site-header";
import { consoleNavigation, type NavItem } from "@/lib/auth/console-navigation";
import type { Principal } from "@/lib/auth/principal";
import { DEFAULT_LOCALE, isLocale, LOCALE_COOKIE } from "@/lib/i18n/locales";
import { getPagePrincipal } from "../_lib/require-principal";
import { embeddedOrigins } from "./embed/embedded";

/**
 * The header and `<main>` every route group's layout draws: the header once signed in (a layout does
 * not know the requested path and is not re-rendered on client navigation, so each page enforces
 * sign-in itself with `requirePrincipal`). `wide`: the manager's console (desktop-first, 1280 px).
 * `borrower`: the signer's and the package's pages, where a person with no role in any organization
 * (a borrower) reads the header in their language.
 */
export async function SiteFrame({
  children,
  wide = false,
  borrower = false,
  mainClassName,
  link,
}: {
  children: ReactNode;
  wide?: boolean;
  borrower?: boolean;
  mainClassName: string;
  /** The header's link component (the console's layouts pass next/link's; see SiteHeader). */
  link?: HeaderLink;
}) {
  const { principal } = await getPagePrincipal();
  // Inside an embedded signing frame the page draws its own compact header, and nothing leads elsewhere.
  const framed = borrower && (await embeddedOrigins()) !== null;
  return (
    <>
      {principal && !framed ? await header(principal, wide, borrower, link) : null}
      <main id="main" className={mainClassName}>
        {children}
      </main>
    </>
  );
}

/** The labels of the links a borrower has (consoleNavigation gives a person with no role these two). */
const BORROWER_LINKS = { "/me/esignatures": "myESignatures", "/settings/api-keys": "apiKeys" } as const;

async function header(principal: Principal, wide: boolean, borrower: boolean, link: HeaderLink | undefined) {
  const nav = consoleNavigation(principal);
  // A layout cannot know the page's package, so the header follows the borrower's own choice (the
  // switcher's cookie), else English.
  const locale = (await cookies()).get(LOCALE_COOKIE)?.value;
  if (!borrower || principal.roles.length > 0 || !isLocale(locale) || locale === DEFAULT_LOCALE) {
    return <SiteHeader user={principal.user} nav={nav} wide={wide} link={link} />;
  }
  const t = await getTranslations({ locale, namespace: "header" });
  const translated: NavItem[] = nav.map((item) => {
    const key = BORROWER_LINKS[item.href as keyof typeof BORROWER_LINKS];
    return key ? { ...item, label: t(key) } : item;
  });
  return (
    <SiteHeader user={principal.user} nav={translated} wide={wide} link={link} lang={locale} text={{ main: t("main"), signedInAs: t("signedInAs"), signOut: t("signOut") }} />
  );
}
