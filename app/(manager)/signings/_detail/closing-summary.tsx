import { linkClass } from "@/components/ui/classes";
import { closingSummaryText, getClosingDetail } from "@/lib/closings/closing-detail";
import { loadOrNull } from "@/app/_lib/load-or-404";
import { getPagePrincipal } from "@/app/_lib/require-principal";

/**
 * A hybrid package's line on the manager's package page: "2 e-signed · 1 at the table · 1 scan to
 * review" and the way to its closing page (packet, scans, review). Nothing for an all-e-sign package.
 */
export async function ClosingSummary({ signingId }: { signingId: string }) {
  const { db, principal } = await getPagePrincipal();
  if (!principal) return null;
  const detail = await loadOrNull(getClosingDetail(db, { principal, packageId: signingId }));
  if (!detail) return null;
  if (detail.documents.every((d) => d.executionMode === "esign")) {
    if (detail.signing.status !== "draft") return null;
    return (
      <p className="text-sm text-slate-800">
        Some documents signed in ink at a closing table?{" "}
        <a href={`/signings/${signingId}/closing`} className={linkClass}>
          Set how each document is signed and the appointment
        </a>
      </p>
    );
  }
  const review = detail.summary.scanToReview;
  return (
    <p data-testid="closing-summary-line" className="text-sm text-slate-800">
      <span className="font-medium">Hybrid closing:</span> {closingSummaryText(detail.summary)} ·{" "}
      <a href={`/signings/${signingId}/closing`} className={linkClass}>
        {review > 0 ? "Review scans" : "Table packet and scans"}
      </a>
    </p>
  );
}
