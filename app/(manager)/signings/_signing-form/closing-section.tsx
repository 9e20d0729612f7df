import { InputField } from "@/components/ui/field";
import { FormSection } from "./form-section";

/**
 * Step 5 (optional): the closing appointment of a hybrid closing and the moment e-signing opens (a
 * lender's waiting period). Times are UTC, like every time the product shows.
 */
export function ClosingSection({ values, fieldErrors }: { values: Record<string, string>; fieldErrors: Record<string, string> }) {
  const error = (field: string) => fieldErrors[`appointment.${field}`];
  return (
    <FormSection id="closing-heading" title="Closing appointment (optional)" step={5}>
      <p className="text-sm text-slate-700">
        For documents signed at the table: when and where the closing is, and who the settlement agent is. Borrowers see it under “Your closing”.
      </p>
      <div className="grid gap-4 md:grid-cols-2">
        <InputField id="signing-closing-at" name="closingAt" type="datetime-local" label="Closing date and time (UTC)" defaultValue={values.closingAt ?? ""} error={error("closingAt")} />
        <InputField
          id="signing-esign-opens-at"
          name="esignOpensAt"
          type="datetime-local"
          label="E-signing opens at (UTC)"
          hint="Optional: e-signing is refused before this moment (a waiting period)."
          defaultValue={values.esignOpensAt ?? ""}
          error={error("esignOpensAt")}
        />
        <InputField id="signing-closing-place" name="closingPlace" label="Place" maxLength={500} defaultValue={values.closingPlace ?? ""} error={error("closingPlace")} />
        <InputField
          id="signing-settlement-agent"
          name="settlementAgent"
          label="Settlement agent"
          hint="Name and email, e.g. Ana Ruiz, ana@title.example"
          maxLength={200}
          defaultValue={values.settlementAgent ?? ""}
          error={error("settlementAgent")}
        />
      </div>
    </FormSection>
  );
}
