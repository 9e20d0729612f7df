"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { FormMessage, InputField, SelectField, TextAreaField } from "@/components/ui/field";
import type { FormState } from "@/app/_lib/validated-action";
import { DOCUMENT_TYPE_LABELS } from "../../_components/document-labels";
import type { PlaceGroup } from "../../_components/place-options";
import { createDocumentAction } from "../actions";

const CONTACT_ROWS = [0, 1, 2];
const DOCUMENT_TYPES = Object.keys(DOCUMENT_TYPE_LABELS) as (keyof typeof DOCUMENT_TYPE_LABELS)[];

type Props = { places: PlaceGroup[]; packages: { id: string; label: string }[] };

function ContactRows({ prefix, legend, hint, values, errors }: { prefix: string; legend: string; hint: string; values: Record<string, string>; errors: Record<string, string> }) {
  return (
    <fieldset className="space-y-3">
      <legend className="text-sm font-semibold text-slate-900">{legend}</legend>
      <p className="text-xs text-slate-600">{hint}</p>
      {CONTACT_ROWS.map((i) => (
        <div key={i} className="grid gap-3 sm:grid-cols-2">
          <InputField
            id={`${prefix}-${i}-name`}
            name={`${prefix}.${i}.name`}
            label={`${legend.replace(/s$/, "")} ${i + 1} name`}
            defaultValue={values[`${prefix}.${i}.name`]}
            error={errors[`${prefix}.${i}.name`]}
            maxLength={200}
          />
          <InputField
            id={`${prefix}-${i}-email`}
            name={`${prefix}.${i}.email`}
            type="email"
            label={`${legend.replace(/s$/, "")} ${i + 1} email`}
            defaultValue={values[`${prefix}.${i}.email`]}
            error={errors[`${prefix}.${i}.email`]}
            maxLength={320}
          />
        </div>
      ))}
    </fieldset>
  );
}

/** The create form: posts natively (works before hydration), keeps what was typed and shows the API's messages by field. */
export function DocumentForm({ places, packages }: Props) {
  const [state, action] = useActionState<FormState, FormData>(createDocumentAction, { status: "idle" });
  const values = state.status === "error" ? state.values : {};
  const errors = state.status === "error" ? state.fieldErrors : {};
  const placeError = errors.organizationId ?? errors.companyId ?? errors.locationId ?? errors._form;

  return (
    <form key={JSON.stringify(values)} action={action} className="space-y-8 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
      <FormMessage state={state} />
      <section aria-labelledby="doc-what" className="space-y-4">
        <h2 id="doc-what" className="text-lg font-semibold text-slate-900">
          What and where
        </h2>
        <InputField id="doc-title" name="title" label="Title" required maxLength={200} defaultValue={values.title} error={errors.title} hint="For example: Title — 2019 Clayton 16x76" />
        <SelectField id="doc-type" name="type" label="Type" required defaultValue={values.type ?? "certificate_of_title"} error={errors.type}>
          {DOCUMENT_TYPES.map((t) => (
            <option key={t} value={t}>
              {DOCUMENT_TYPE_LABELS[t]}
            </option>
          ))}
        </SelectField>
        <SelectField
          id="doc-place"
          name="place"
          label="Place"
          required
          defaultValue={values.place ?? places[0]?.options[0]?.value}
          error={placeError}
          hint="The organization, company or location the document belongs to."
        >
          {places.map((group) => (
            <optgroup key={group.organization} label={group.organization}>
              {group.options.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </optgroup>
          ))}
        </SelectField>
        <SelectField
          id="doc-package"
          name="signingPackageId"
          label="Signing package (optional)"
          defaultValue={values.signingPackageId ?? ""}
          error={errors.signingPackageId}
          hint="Link the document to the package it is part of."
        >
          <option value="">No package</option>
          {packages.map((p) => (
            <option key={p.id} value={p.id}>
              {p.label}
            </option>
          ))}
        </SelectField>
      </section>

      <section aria-labelledby="doc-who" className="space-y-4">
        <h2 id="doc-who" className="text-lg font-semibold text-slate-900">
          People
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField id="doc-borrower-name" name="borrowerName" label="Borrower name" maxLength={200} defaultValue={values.borrowerName} error={errors.borrowerName} />
          <InputField
            id="doc-borrower-email"
            name="borrowerEmail"
            type="email"
            label="Borrower email"
            maxLength={320}
            defaultValue={values.borrowerEmail}
            error={errors.borrowerEmail}
          />
        </div>
        <ContactRows prefix="coBorrowers" legend="Co-borrowers" hint="Optional. Outreach can be sent to these addresses." values={values} errors={errors} />
        <ContactRows prefix="dealerContacts" legend="Dealer contacts" hint="Optional. The dealer's people who handle this paperwork." values={values} errors={errors} />
      </section>

      <section aria-labelledby="doc-collateral" className="space-y-4">
        <h2 id="doc-collateral" className="text-lg font-semibold text-slate-900">
          Collateral
        </h2>
        <div className="grid gap-4 sm:grid-cols-2">
          <InputField id="doc-make" name="collateralMake" label="Make" maxLength={100} defaultValue={values.collateralMake} error={errors.collateralMake} />
          <InputField id="doc-model" name="collateralModel" label="Model" maxLength={100} defaultValue={values.collateralModel} error={errors.collateralModel} />
          <InputField id="doc-year" name="collateralYear" label="Year" inputMode="numeric" maxLength={4} defaultValue={values.collateralYear} error={errors.collateralYear} />
          <InputField id="doc-serial" name="collateralSerial" label="Serial or VIN" maxLength={100} defaultValue={values.collateralSerial} error={errors.collateralSerial} />
        </div>
        <TextAreaField id="doc-notes" name="notes" label="Notes" rows={3} maxLength={10000} defaultValue={values.notes} error={errors.notes} />
      </section>

      <div className="flex justify-end">
        <SubmitButton pendingLabel="Creating…">Create document</SubmitButton>
      </div>
    </form>
  );
}
