import Link from "next/link";
import type { NavItem } from "@/lib/auth/console-navigation";
import { focusRing } from "@/components/ui/classes";

const linkClass =
  `rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 ${focusRing}`;

/** The header of signed-in pages: the links the person's roles allow (`consoleNavigation`), who is signed in, sign-out. */
export function SiteHeader({ user, nav, wide = false }: { user: { name: string; email: string }; nav: NavItem[]; wide?: boolean }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className={`mx-auto flex flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6 ${wide ? "max-w-7xl" : "max-w-6xl"}`}>
        <Link href="/" className={`text-base font-semibold text-slate-900 ${focusRing}`}>
          Closing &amp; Signing
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          {nav.map((item) => (
            <Link key={item.href} href={item.href} className={linkClass}>
              {item.label}
            </Link>
          ))}
          <span className="mx-2 hidden h-5 w-px bg-slate-200 sm:block" aria-hidden="true" />
          <span className="px-2 text-sm text-slate-700" data-testid="current-user">
            <span className="sr-only">Signed in as </span>
            <span className="font-medium text-slate-900">{user.name}</span>
            <span className="hidden text-slate-600 xl:inline"> ({user.email})</span>
          </span>
          <Link href="/sign-out" className={linkClass}>
            Sign out
          </Link>
        </nav>
      </div>
    </header>
  );
}
