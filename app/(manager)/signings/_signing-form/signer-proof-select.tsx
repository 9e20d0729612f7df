import { SelectField } from "@/components/ui/field";

/** The choices of how signers prove who they are, in plain words, each with a one-line hint. */
export const PROOF_METHODS = [
  { value: "link", label: "The emailed link only", hint: "Opening the invitation link is enough." },
  { value: "email_code", label: "A code sent by email", hint: "After opening the link, the signer types a code we email them." },
  { value: "access_code", label: "An access code you give them", hint: "You type a code for each signer here and tell it to them yourself." },
  { value: "sms_code", label: "A code sent by text message", hint: "You give each signer's mobile number here; we text them a code." },
  { value: "account", label: "Signing in with an account", hint: "The signer signs in with an account under their email address." },
] as const;

export const DEFAULT_PROOF_METHOD = "email_code";

export const proofMethodLabel = (value: string) => PROOF_METHODS.find((m) => m.value === value)?.label ?? value;

/** "How signers prove who they are" for the package (new package and draft; default: a code sent by email), with what the chosen one means. */
export function SignerProofSelect({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
  const chosen = PROOF_METHODS.find((m) => m.value === value);
  return (
    <SelectField
      id="signing-signer-auth-method"
      name="signerAuthMethod"
      label="How signers prove who they are"
      hint={`${chosen ? `${chosen.hint} ` : ""}A signer can have another method: choose it on their row.`}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      error={error}
    >
      {PROOF_METHODS.map((m) => (
        <option key={m.value} value={m.value}>
          {m.label}
        </option>
      ))}
    </SelectField>
  );
}
