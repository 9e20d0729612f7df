import type { ReactNode } from "react";
import { Button } from "@/components/ui/button";
import { buttonClass } from "@/components/ui/button-class";
import { InputField, SelectField, TextAreaField } from "@/components/ui/field";
import { FormSection } from "./form-section";
import { isBlankRow, rowIntent, rowNeedsAccessCodeInput, rowNeedsPhoneInput, type RowButtonAction, type SignerRowAction } from "./signer-rows";
import { PROOF_METHODS, proofMethodLabel } from "./signer-proof-select";
import type { SignerRow } from "./types";

/** A row of the client form: the posted fields plus a React key that survives reordering. */
export type KeyedRow = SignerRow & { key: number };

/**
 * Step 3: the signer rows, each with name, email, role and routing order, how the signer proves who
 * they are (the package's method unless the row picks another), the access code that method may need,
 * the mobile number (required for a texted code; optional for texts) with the consent to texts, and
 * the row buttons.
 */
export function SignersSection({
  rows,
  dispatch,
  fieldErrors,
  hydrated,
  packageMethod,
  packageMethodSelect,
}: {
  rows: KeyedRow[];
  dispatch: (action: SignerRowAction) => void;
  fieldErrors: Record<string, string>;
  hydrated: boolean;
  /** The package's method of proof, as chosen in the form right now. */
  packageMethod: string;
  /** "How signers prove who they are" for the whole package, shown above the rows. */
  packageMethodSelect: ReactNode;
}) {
  // Errors per row are keyed by the row's place among the filled rows (blank rows are not sent).
  let filledIndex = -1;
  const errorKeyOf = rows.map((row) => (isBlankRow(row) ? -1 : ++filledIndex));
  const rowsError = fieldErrors.signers;

  return (
    <FormSection id="who-heading" title="Who signs" step={3}>
      <p className="text-sm text-slate-700">
        Signers are invited in routing order: order 1 first, order 2 once everyone in order 1 has signed. Signers with the same number sign in
        parallel.
      </p>
      <div className="md:max-w-xl">{packageMethodSelect}</div>
      {rowsError ? <p className="text-sm text-red-800">{rowsError}</p> : null}
      <ol className="space-y-4">
        {rows.map((row, i) => {
          const n = i + 1;
          const errorKey = errorKeyOf[i]!;
          const err = (field: string) => (errorKey >= 0 ? fieldErrors[`signers.${errorKey}.${field}`] : undefined);
          const prefix = `signers.${i}`;
          const update = (change: Partial<SignerRow>) => dispatch({ type: "update", index: i, change });
          const label = (text: string) => (
            <>
              <span className="sr-only">Signer {n} </span>
              {text}
            </>
          );
          return (
            <li key={row.key}>
              <fieldset className="rounded-md border border-slate-300 p-4">
                <legend className="px-1 text-sm font-semibold text-slate-900">
                  Signer {n}
                  {row.label ? ` — ${row.label}` : ""}
                </legend>
                {row.id ? <input type="hidden" name={`${prefix}.id`} value={row.id} /> : null}
                {row.label ? <input type="hidden" name={`${prefix}.label`} value={row.label} /> : null}
                {row.keepsAccessCode ? <input type="hidden" name={`${prefix}.keepsAccessCode`} value={row.keepsAccessCode} /> : null}
                <div className="grid gap-3 md:grid-cols-[2fr_2fr_1fr_6rem_9rem]">
                  <InputField
                    id={`signer-${row.key}-name`}
                    name={`${prefix}.name`}
                    label={label("Name")}
                    value={row.name}
                    onChange={(event) => update({ name: event.currentTarget.value })}
                    autoComplete="off"
                    maxLength={200}
                    error={err("name")}
                  />
                  <InputField
                    id={`signer-${row.key}-email`}
                    name={`${prefix}.email`}
                    type="email"
                    label={label("Email")}
                    value={row.email}
                    onChange={(event) => update({ email: event.currentTarget.value })}
                    autoComplete="off"
                    maxLength={320}
                    error={err("email")}
                  />
                  <SelectField
                    id={`signer-${row.key}-role`}
                    name={`${prefix}.role`}
                    label={label("Role")}
                    value={row.role}
                    onChange={(event) => update({ role: event.currentTarget.value })}
                    error={err("role")}
                  >
                    <option value="signer">Signer</option>
                    <option value="co_signer">Co-signer</option>
                  </SelectField>
                  <InputField
                    id={`signer-${row.key}-order`}
                    name={`${prefix}.routingOrder`}
                    type="number"
                    min={1}
                    max={100}
                    inputMode="numeric"
                    label={label("Order")}
                    value={row.routingOrder}
                    onChange={(event) => update({ routingOrder: event.currentTarget.value })}
                    error={err("routingOrder")}
                  />
                  <SelectField
                    id={`signer-${row.key}-language`}
                    name={`${prefix}.language`}
                    label={label("Language")}
                    value={row.language ?? ""}
                    onChange={(event) => update({ language: event.currentTarget.value })}
                    error={err("language")}
                  >
                    <option value="">Workspace default</option>
                    <option value="en">English</option>
                    <option value="es">Spanish</option>
                  </SelectField>
                </div>
                <div className="mt-3 grid gap-3 md:grid-cols-2">
                  <SelectField
                    id={`signer-${row.key}-auth-method`}
                    name={`${prefix}.authMethod`}
                    label={label("Proves who they are with")}
                    hint={row.authMethod ? undefined : `Now: ${proofMethodLabel(packageMethod).toLowerCase()}.`}
                    value={row.authMethod ?? ""}
                    onChange={(event) => update({ authMethod: event.currentTarget.value })}
                    error={err("authMethod")}
                  >
                    <option value="">The package&apos;s method</option>
                    {PROOF_METHODS.map((m) => (
                      <option key={m.value} value={m.value}>
                        {m.label}
                      </option>
                    ))}
                  </SelectField>
                  {rowNeedsAccessCodeInput(row, packageMethod) ? (
                    <InputField
                      id={`signer-${row.key}-access-code`}
                      name={`${prefix}.accessCode`}
                      label={label(row.keepsAccessCode ? "New access code" : "Access code")}
                      hint={
                        row.keepsAccessCode
                          ? "An access code is set. It is never shown again: leave this empty to keep it, or type a new one to replace it."
                          : "4 to 64 characters, e.g. the last four digits of their SSN or the property's ZIP code. Tell it to the signer yourself (by phone, in person). It is stored so that nobody can read it back: after saving, it is never shown again."
                      }
                      value={row.accessCode ?? ""}
                      onChange={(event) => update({ accessCode: event.currentTarget.value })}
                      autoComplete="off"
                      spellCheck={false}
                      maxLength={64}
                      required={!row.keepsAccessCode}
                      error={err("accessCode")}
                    />
                  ) : null}
                </div>
                {/* Texts: the signer's mobile number and the manager's attestation of their consent. */}
                <div className="mt-3 grid gap-3 md:grid-cols-[2fr_4fr] md:items-start">
                  <InputField
                    id={`signer-${row.key}-phone`}
                    name={`${prefix}.phone`}
                    type="tel"
                    inputMode="tel"
                    label={label(rowNeedsPhoneInput(row, packageMethod) ? "Mobile number" : "Mobile number (optional)")}
                    hint={
                      rowNeedsPhoneInput(row, packageMethod)
                        ? "With the country code, e.g. +15125550123. The code is texted to this number."
                        : "With the country code, e.g. +15125550123."
                    }
                    required={rowNeedsPhoneInput(row, packageMethod)}
                    value={row.phone ?? ""}
                    onChange={(event) => update({ phone: event.currentTarget.value })}
                    autoComplete="off"
                    maxLength={16}
                    error={err("phone")}
                  />
                  <div className="space-y-1 md:pt-6">
                    <label className="flex items-start gap-2 text-sm text-slate-900" htmlFor={`signer-${row.key}-sms-consent`}>
                      <input
                        id={`signer-${row.key}-sms-consent`}
                        type="checkbox"
                        name={`${prefix}.smsConsent`}
                        value="on"
                        checked={Boolean(row.smsConsent)}
                        onChange={(event) => update({ smsConsent: event.currentTarget.checked ? "on" : undefined })}
                        className="mt-0.5 h-4 w-4 shrink-0"
                        aria-describedby={err("smsConsent") ? `signer-${row.key}-sms-consent-error` : undefined}
                      />
                      <span>
                        <span className="sr-only">Signer {n}: </span>
                        The signer agreed to receive text messages at this number (invitations and reminders, with their link). They can reply STOP at any
                        time.
                      </span>
                    </label>
                    {err("smsConsent") ? (
                      <p id={`signer-${row.key}-sms-consent-error`} className="text-sm text-red-800">
                        {err("smsConsent")}
                      </p>
                    ) : null}
                  </div>
                </div>
                <div className="mt-3">
                  <TextAreaField
                    id={`signer-${row.key}-attachments`}
                    name={`${prefix}.attachments`}
                    label={label("Attachments to ask for (optional)")}
                    hint={"One per line, e.g. \"Driver's license, front and back | Both sides, readable\". Add (optional) at the end of a line the signer may skip; the others must be accepted before the package completes."}
                    rows={2}
                    maxLength={4000}
                    value={row.attachments ?? ""}
                    onChange={(event) => update({ attachments: event.currentTarget.value })}
                    error={err("attachments")}
                  />
                </div>
                <div className="mt-3 flex flex-wrap gap-2">
                  <RowButton hydrated={hydrated} action={{ type: "move", index: i, by: -1 }} dispatch={dispatch} disabled={i === 0}>
                    Move up<span className="sr-only"> signer {n}</span>
                  </RowButton>
                  <RowButton hydrated={hydrated} action={{ type: "move", index: i, by: 1 }} dispatch={dispatch} disabled={i === rows.length - 1}>
                    Move down<span className="sr-only"> signer {n}</span>
                  </RowButton>
                  <RowButton hydrated={hydrated} action={{ type: "remove", index: i }} dispatch={dispatch}>
                    Remove<span className="sr-only"> signer {n}</span>
                  </RowButton>
                </div>
              </fieldset>
            </li>
          );
        })}
      </ol>
      <RowButton hydrated={hydrated} action={{ type: "add" }} dispatch={dispatch}>
        Add signer
      </RowButton>
    </FormSection>
  );
}

/** Before hydration a submit button that round-trips through the action; afterwards a local change. */
function RowButton({
  hydrated,
  action,
  dispatch,
  disabled,
  children,
}: {
  hydrated: boolean;
  action: Exclude<RowButtonAction, { type: "template" }>;
  dispatch: (action: SignerRowAction) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  if (!hydrated) {
    return (
      <button type="submit" name="intent" value={rowIntent(action)} disabled={disabled} className={buttonClass("secondary", "px-3 py-1.5")}>
        {children}
      </button>
    );
  }
  return (
    <Button variant="secondary" className="px-3 py-1.5" disabled={disabled} onClick={() => dispatch(action)}>
      {children}
    </Button>
  );
}
