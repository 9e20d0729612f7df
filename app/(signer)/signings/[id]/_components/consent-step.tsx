"use client";

import { useLocale, useTranslations } from "next-intl";
import { useId } from "react";
import { ESIGN_DISCLOSURE_VERSION } from "@/lib/signings/esign-disclosure";
import type { ConsentFormState } from "../consent-form";
import { focusRing } from "@/components/ui/classes";

/**
 * The electronic-records disclosure (in the spirit of the US ESIGN Act, 15 U.S.C. § 7001(c)) and the
 * explicit agreement. The form posts natively, so it works before the page hydrates.
 */
export function ConsentStep({
  signingId,
  state,
  action,
  pending,
}: {
  signingId: string;
  state: ConsentFormState;
  action: (formData: FormData) => void;
  pending: boolean;
}) {
  const id = useId();
  const t = useTranslations("consent");
  const locale = useLocale();
  const error = state.status === "error" ? state.message : null;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3 rounded-lg border border-slate-300 bg-white p-4">
      <h3 id={`${id}-title`} className="text-base font-semibold text-slate-950">
        {t("title")}
      </h3>
      <p className="text-sm text-slate-800">{t("intro")}</p>
      <dl className="space-y-2 text-sm text-slate-800">
        <div>
          <dt className="font-semibold text-slate-950">{t("paperTitle")}</dt>
          <dd>{t("paperBody")}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">{t("withdrawTitle")}</dt>
          <dd>{t("withdrawBody")}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">{t("needTitle")}</dt>
          <dd>{t("needBody")}</dd>
        </div>
        <div>
          <dt className="font-semibold text-slate-950">{t("contactTitle")}</dt>
          <dd>{t("contactBody")}</dd>
        </div>
      </dl>
      <form action={action} className="space-y-3">
        <input type="hidden" name="signingId" value={signingId} />
        <input type="hidden" name="disclosureVersion" value={ESIGN_DISCLOSURE_VERSION} />
        {/* The language the disclosure was shown in: recorded with the consent. */}
        <input type="hidden" name="disclosureLanguage" value={locale} />
        <div className="flex items-start gap-3">
          <input
            id={`${id}-accept`}
            type="checkbox"
            name="accept"
            value="yes"
            required
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="mt-0.5 size-5 shrink-0 accent-blue-700"
          />
          <label htmlFor={`${id}-accept`} className="text-sm font-medium text-slate-950">
            {t("agreeLabel")}
          </label>
        </div>
        {error ? (
          <p id={`${id}-error`} role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
            {error}
          </p>
        ) : null}
        <button
          type="submit"
          disabled={pending}
          className={`min-h-11 w-full rounded-md bg-[var(--brand-color,#1d4ed8)] px-4 py-2.5 text-base font-semibold text-white hover:brightness-90 ${focusRing} disabled:cursor-wait disabled:opacity-70`}
        >
          {pending ? t("saving") : t("agree")}
        </button>
      </form>
    </section>
  );
}
