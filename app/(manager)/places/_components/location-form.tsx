"use client";

import { useActionState } from "react";
import type { FormState } from "@/app/_lib/validated-action";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField } from "@/components/ui/field";

export type LocationValues = {
  name: string;
  addressLine1: string | null;
  city: string | null;
  region: string | null;
  postalCode: string | null;
  timezone: string;
};

const EMPTY: LocationValues = { name: "", addressLine1: null, city: null, region: null, postalCode: null, timezone: "" };

/** Creates or edits a location: name, address and time zone, validated by the API's location schema. */
export function LocationForm({
  action,
  idPrefix,
  initial = EMPTY,
  hidden = {},
  submitLabel,
  pendingLabel,
}: {
  action: (previous: FormState, formData: FormData) => Promise<FormState>;
  idPrefix: string;
  initial?: LocationValues;
  hidden?: Record<string, string>;
  submitLabel: string;
  pendingLabel: string;
}) {
  const [state, formAction] = useActionState(action, { status: "idle" } as FormState);
  const values = state.status === "error" ? state.values : {};
  const errors = state.status === "error" ? state.fieldErrors : {};
  const field = (name: keyof LocationValues) => ({
    id: `${idPrefix}-${name}`,
    name,
    defaultValue: values[name] ?? initial[name] ?? "",
    error: errors[name],
  });
  return (
    <form action={formAction} className="space-y-4" noValidate>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div className="grid gap-4 md:grid-cols-2">
        <InputField {...field("name")} label="Location name" required maxLength={200} />
        <InputField {...field("addressLine1")} label="Street address (optional)" maxLength={200} autoComplete="off" />
        <InputField {...field("city")} label="City (optional)" maxLength={100} autoComplete="off" />
        <InputField {...field("region")} label="State or region (optional)" maxLength={100} autoComplete="off" />
        <InputField {...field("postalCode")} label="Postal code (optional)" maxLength={20} autoComplete="off" />
        <InputField
          {...field("timezone")}
          label="Time zone"
          hint={initial === EMPTY ? "An IANA time zone such as America/Chicago. Left empty: UTC." : "An IANA time zone such as America/Chicago."}
          maxLength={64}
          autoComplete="off"
        />
      </div>
      <div className="flex flex-wrap items-center gap-4">
        <SubmitButton pendingLabel={pendingLabel}>{submitLabel}</SubmitButton>
        <FormMessage state={state} id={`${idPrefix}-message`} />
      </div>
    </form>
  );
}
