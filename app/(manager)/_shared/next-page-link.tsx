import Link from "next/link";
import { focusRing } from "@/components/ui/classes";

const linkClass =
  `rounded-md px-3 py-1.5 text-sm font-medium text-blue-800 underline-offset-2 hover:bg-slate-100 hover:underline ${focusRing}`;

/**
 * Keyset paging of a list: "Next page" carries the domain's `nextCursor`; "First page" returns to the
 * start (a keyset list pages forward only). `label` names the list for screen readers.
 */
export function NextPageLink({ path, cursor, nextCursor, label }: { path: string; cursor?: string; nextCursor: string | null; label: string }) {
  if (!cursor && !nextCursor) return null;
  return (
    <nav aria-label={`${label} pages`} className="flex items-center justify-end gap-2">
      {cursor ? (
        <Link href={path} className={linkClass}>
          First page
        </Link>
      ) : null}
      {nextCursor ? (
        <Link href={`${path}?cursor=${encodeURIComponent(nextCursor)}`} className={linkClass}>
          Next page
        </Link>
      ) : null}
    </nav>
  );
}
