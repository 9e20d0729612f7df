import type { ComponentType, ReactNode } from "react";
import type { NavItem } from "@/lib/auth/console-navigation";
import { focusRing } from "@/components/ui/classes";

const linkClass =
  `rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 ${focusRing}`;

/** The header's own words; a borrower's pages pass them from the catalogs (`header`), the console's are English. */
export type SiteHeaderText = { main: string; signedInAs: string; signOut: string };

/**
 * How the header links: the console's layouts pass next/link's `Link` (client-side navigation between
 * console pages); a borrower's pages keep the plain anchor, so next/link's client code is not among
 * the scripts of the signer's page (a borrower leaves the page by its links, and a full page load
 * costs nothing there).
 */
export type HeaderLink = ComponentType<{ href: string; className?: string; children?: ReactNode }>;

const ENGLISH: SiteHeaderText = { main: "Main", signedInAs: "Signed in as", signOut: "Sign out" };

/** The header of signed-in pages: the links the person's roles allow (`consoleNavigation`), who is signed in, sign-out. */
export function SiteHeader({
  user,
  nav,
  wide = false,
  text = ENGLISH,
  lang,
  link,
}: {
  user: { name: string; email: string };
  nav: NavItem[];
  wide?: boolean;
  text?: SiteHeaderText;
  /** The language of `text` and `nav` when it is not the document's (a borrower's Spanish page). */
  lang?: string;
  link?: HeaderLink;
}) {
  const A = link ?? "a";
  return (
    <header lang={lang} className="border-b border-slate-200 bg-white">
      <div className={`mx-auto flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6 ${wide ? "max-w-7xl" : "max-w-6xl"}`}>
        <A href="/" className={`text-base font-semibold text-slate-900 ${focusRing}`}>
          Closing &amp; Signing
        </A>
        <nav aria-label={text.main} className="flex flex-wrap items-center gap-1">
          {nav.map((item) => (
            <A key={item.href} href={item.href} className={linkClass}>
              {item.label}
            </A>
          ))}
          <span className="mx-2 hidden h-5 w-px bg-slate-200 sm:block" aria-hidden="true" />
          <span className="px-2 text-sm text-slate-700" data-testid="current-user">
            <span className="sr-only">{text.signedInAs} </span>
            <span className="font-medium text-slate-900">{user.name}</span>
            <span className="hidden text-slate-600 xl:inline"> ({user.email})</span>
          </span>
          <A href="/sign-out" className={linkClass}>
            {text.signOut}
          </A>
        </nav>
      </div>
    </header>
  );
}
