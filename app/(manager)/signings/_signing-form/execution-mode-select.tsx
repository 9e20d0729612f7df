import { SelectField } from "@/components/ui/field";
import { EXECUTION_MODE_OPTIONS } from "@/lib/closings/execution-mode-options";

/** How one document is executed (hybrid closings): a labelled native select, default "E-sign now". */
export function ExecutionModeSelect({
  id,
  name,
  documentName,
  label,
  defaultValue,
  error,
}: {
  id: string;
  name: string;
  documentName: string;
  /** Overrides "How <document> is signed". */
  label?: string;
  defaultValue?: string;
  error?: string;
}) {
  return (
    <SelectField
      id={id}
      name={name}
      label={label ?? `How ${documentName} is signed`}
      defaultValue={defaultValue || "esign"}
      error={error}
      className="max-w-xs"
    >
      {EXECUTION_MODE_OPTIONS.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </SelectField>
  );
}
