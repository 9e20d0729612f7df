import { useTranslations } from "next-intl";
import type { FlowStep } from "@/db/schema";
import type { FlowStepStatus } from "@/lib/views/get-signer-package-page";

const MARK: Record<FlowStepStatus, string> = {
  complete: "border-emerald-700 bg-emerald-700 text-white",
  current: "border-blue-700 bg-white text-blue-800 ring-2 ring-blue-700",
  upcoming: "border-slate-400 bg-white text-slate-700",
};

/** The flow's steps in order; the current one is `aria-current="step"` and says so in words, not only in colour. */
export function FlowSteps({ steps }: { steps: { step: FlowStep; status: FlowStepStatus }[] }) {
  const t = useTranslations("steps");
  return (
    <ol aria-label={t("list")} className="space-y-2">
      {steps.map(({ step, status }, index) => (
        <li key={step} aria-current={status === "current" ? "step" : undefined} className="flex items-center gap-3 text-sm">
          <span aria-hidden="true" className={`flex h-6 w-6 shrink-0 items-center justify-center rounded-full border text-xs font-semibold ${MARK[status]}`}>
            {status === "complete" ? "✓" : index + 1}
          </span>
          <span className={status === "current" ? "font-semibold text-slate-900" : "text-slate-700"}>
            {t(step)}
            {status === "current" ? <span className="ml-2 rounded bg-blue-50 px-1.5 py-0.5 text-xs font-medium text-blue-800">{t("youAreHere")}</span> : null}
            {status === "complete" ? <span className="sr-only"> {t("completed")}</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}
