"use client";

import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { focusRing } from "@/components/ui/classes";

type Props = {
  /** "2 of 3 left", or what the signer is waiting for; empty: the action takes the whole bar. */
  summary: string;
  progress: { done: number; total: number } | null;
  action: { label: string; href: string } | null;
};

/**
 * The phone's bottom bar (hidden from 1024 px, where the side panel holds the action): progress
 * and the one primary action. Scrolling down folds it to a thin strip so it never covers the page;
 * scrolling up unfolds it. In landscape on a phone it stays thin (CSS).
 */
export function BottomBar({ summary, progress, action }: Props) {
  const [folded, setFolded] = useState(false);
  const t = useTranslations("sign");
  useEffect(() => {
    let last = window.scrollY;
    const onScroll = () => {
      const y = window.scrollY;
      if (Math.abs(y - last) < 24) return;
      setFolded(y > last && y > 80);
      last = y;
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    return () => window.removeEventListener("scroll", onScroll);
  }, []);
  const percent = progress && progress.total > 0 ? Math.round((progress.done / progress.total) * 100) : 0;
  const actionOnly = summary === "" && progress === null;
  return (
    <div
      data-testid="bottom-bar"
      data-folded={folded}
      className="group fixed inset-x-0 bottom-0 z-20 border-t border-slate-200 bg-white/95 px-4 pb-[max(0.5rem,env(safe-area-inset-bottom))] pt-2 shadow-[0_-2px_8px_rgba(15,23,42,0.08)] backdrop-blur lg:hidden"
    >
      <div className="mx-auto flex max-w-3xl items-center gap-3">
        <div className={actionOnly ? "hidden" : "min-w-0 flex-1"}>
          <p className="truncate text-sm font-medium text-slate-900">{summary}</p>
          {progress ? (
            <div
              role="progressbar"
              aria-label={t("documentsSigned")}
              aria-valuemin={0}
              aria-valuemax={progress.total}
              aria-valuenow={progress.done}
              aria-valuetext={t("progressText", { done: progress.done, total: progress.total })}
              className="mt-1 h-1.5 w-full overflow-hidden rounded-full bg-slate-200 group-data-[folded=true]:hidden landscape:max-lg:[@media(max-height:500px)]:hidden"
            >
              <div className="h-full rounded-full bg-[var(--brand-color,#1d4ed8)]" style={{ width: `${percent}%` }} />
            </div>
          ) : null}
        </div>
        {action ? (
          <a
            href={action.href}
            data-only={actionOnly}
            className={`shrink-0 rounded-md bg-[var(--brand-color,#1d4ed8)] px-5 py-3 text-center data-[only=true]:flex-1 text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing} group-data-[folded=true]:py-1.5 landscape:max-lg:[@media(max-height:500px)]:py-1.5`}
          >
            {action.label}
          </a>
        ) : null}
      </div>
    </div>
  );
}
