import { SelectField } from "@/components/ui/field";

/** The package's choices of how signers prove who they are, in plain words, each with a one-line hint. */
const METHODS = [
  { value: "link", label: "The emailed link only", hint: "Opening the invitation link is enough." },
  { value: "email_code", label: "A code sent by email", hint: "After opening the link, the signer types a code we email them." },
  { value: "access_code", label: "An access code you give them", hint: "You tell each signer their code yourself; set it through the API for now." },
  { value: "sms_code", label: "A code sent by text message", hint: "Needs each signer's mobile number; set it through the API for now." },
  { value: "account", label: "Signing in with an account", hint: "The signer signs in with an account under their email address." },
] as const;

/** "How signers prove who they are" for a new package (default: a code sent by email). */
export function SignerProofSelect({ value, error }: { value?: string; error?: string }) {
  const current = METHODS.find((m) => m.value === value) ?? METHODS[1];
  return (
    <SelectField
      id="signing-signer-auth-method"
      name="signerAuthMethod"
      label="How signers prove who they are"
      hint={METHODS.map((m) => `${m.label}: ${m.hint}`).join(" ")}
      defaultValue={current.value}
      error={error}
    >
      {METHODS.map((m) => (
        <option key={m.value} value={m.value}>
          {m.label}
        </option>
      ))}
    </SelectField>
  );
}
