/** What a console list page shows while its data loads: grey rows in the page's shape, announced once. */
export function ListSkeleton({ title }: { title: string }) {
  return (
    <div className="space-y-6" aria-busy="true">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight text-slate-900">{title}</h1>
        <p role="status" className="sr-only">
          Loading…
        </p>
        <div className="h-4 w-2/3 max-w-xl animate-pulse rounded bg-slate-200" />
      </div>
      <div className="space-y-3 rounded-lg border border-slate-200 bg-white p-6 shadow-sm">
        <div className="h-5 w-40 animate-pulse rounded bg-slate-200" />
        {[0, 1, 2, 3].map((row) => (
          <div key={row} className="h-10 animate-pulse rounded bg-slate-100" />
        ))}
      </div>
    </div>
  );
}
