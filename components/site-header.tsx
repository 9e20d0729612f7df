import Link from "next/link";

const linkClass =
  "rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600";

export function SiteHeader({ user }: { user: { name: string; email: string } }) {
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3 sm:px-6">
        <Link href="/" className="text-base font-semibold text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600">
          Closing &amp; Signing
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          <Link href="/" className={linkClass}>
            Packages
          </Link>
          <Link href="/me/esignatures" className={linkClass}>
            My signatures
          </Link>
          <Link href="/settings/api-keys" className={linkClass}>
            API keys
          </Link>
          <span className="mx-2 hidden h-5 w-px bg-slate-200 sm:block" aria-hidden="true" />
          <span className="px-2 text-sm text-slate-700" data-testid="current-user">
            <span className="sr-only">Signed in as </span>
            <span className="font-medium text-slate-900">{user.name}</span>
            <span className="hidden text-slate-600 md:inline"> ({user.email})</span>
          </span>
          <Link href="/sign-out" className={linkClass}>
            Sign out
          </Link>
        </nav>
      </div>
    </header>
  );
}
