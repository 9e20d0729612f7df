import Link from "next/link";
import type { NavItem } from "@/lib/auth/console-navigation";
import { focusRing } from "@/components/ui/classes";

const linkClass =
  `rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 ${focusRing}`;

/** The header's own words; a borrower's pages pass them from the catalogs (`header`), the console's are English. */
export type SiteHeaderText = { main: string; signedInAs: string; signOut: string };

const ENGLISH: SiteHeaderText = { main: "Main", signedInAs: "Signed in as", signOut: "Sign out" };

/** The header of signed-in pages: the links the person's roles allow (`consoleNavigation`), who is signed in, sign-out. */
export function SiteHeader({
  user,
  nav,
  wide = false,
  text = ENGLISH,
  lang,
}: {
  user: { name: string; email: string };
  nav: NavItem[];
  wide?: boolean;
  text?: SiteHeaderText;
  /** The language of `text` and `nav` when it is not the document's (a borrower's Spanish page). */
  lang?: string;
}) {
  return (
    <header lang={lang} className="border-b border-slate-200 bg-white">
      <div className={`mx-auto flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6 ${wide ? "max-w-7xl" : "max-w-6xl"}`}>
        <Link href="/" className={`text-base font-semibold text-slate-900 ${focusRing}`}>
          Closing &amp; Signing
        </Link>
        <nav aria-label={text.main} className="flex flex-wrap items-center gap-1">
          {nav.map((item) => (
            <Link key={item.href} href={item.href} className={linkClass}>
              {item.label}
            </Link>
          ))}
          <span className="mx-2 hidden h-5 w-px bg-slate-200 sm:block" aria-hidden="true" />
          <span className="px-2 text-sm text-slate-700" data-testid="current-user">
            <span className="sr-only">{text.signedInAs} </span>
            <span className="font-medium text-slate-900">{user.name}</span>
            <span className="hidden text-slate-600 xl:inline"> ({user.email})</span>
          </span>
          <Link href="/sign-out" className={linkClass}>
            {text.signOut}
          </Link>
        </nav>
      </div>
    </header>
  );
}
