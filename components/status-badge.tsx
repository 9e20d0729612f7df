const STYLES: Record<string, string> = {
  draft: "bg-slate-100 text-slate-800 ring-slate-300",
  sent: "bg-blue-50 text-blue-800 ring-blue-200",
  in_progress: "bg-amber-50 text-amber-900 ring-amber-200",
  completed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  cancelled: "bg-slate-100 text-slate-700 ring-slate-300",
  declined: "bg-red-50 text-red-800 ring-red-200",
  expired: "bg-orange-50 text-orange-900 ring-orange-200",
  pending: "bg-slate-100 text-slate-800 ring-slate-300",
  notified: "bg-blue-50 text-blue-800 ring-blue-200",
  viewed: "bg-indigo-50 text-indigo-800 ring-indigo-200",
  signed: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  active: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  revoked: "bg-slate-100 text-slate-700 ring-slate-300",
};

export function statusLabel(status: string): string {
  const text = status.replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * Status as text (never colour alone), so it reads the same to screen readers and in high contrast.
 * `label`: the words in the reader's language (borrowers' pages); English from the status otherwise.
 */
export function StatusBadge({ status, label }: { status: string; label?: string }) {
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium ring-1 ring-inset ${STYLES[status] ?? STYLES.draft}`}>
      {label ?? statusLabel(status)}
    </span>
  );
}
