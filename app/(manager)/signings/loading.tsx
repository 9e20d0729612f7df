/** Skeleton rows while the list loads (UX: skeletons, not spinners). */
export default function Loading() {
  return (
    <div className="space-y-5" aria-busy="true">
      <h1 className="text-2xl font-semibold tracking-tight text-slate-900">Packages</h1>
      <p role="status" className="sr-only">
        Loading packages…
      </p>
      <div className="h-28 animate-pulse rounded-lg bg-slate-100" />
      <div className="h-9 animate-pulse rounded bg-slate-100" />
      <ul className="space-y-2" aria-hidden="true">
        {Array.from({ length: 6 }, (_, i) => (
          <li key={i} className="h-14 animate-pulse rounded bg-slate-100" />
        ))}
      </ul>
    </div>
  );
}
