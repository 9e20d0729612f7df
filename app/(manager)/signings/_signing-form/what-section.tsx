import { buttonClass } from "@/components/ui/button-class";
import { InputField, SelectField, TextAreaField } from "@/components/ui/field";
import { FormSection } from "./form-section";
import { rowIntent } from "./signer-rows";
import type { FlowOption, TemplateOption } from "./types";

/** Step 2: title, template (new packages only), flow and the message to signers. */
export function WhatSection({
  draft,
  values,
  fieldErrors,
  templates,
  templateId,
  onTemplateChange,
  flows,
  hydrated,
}: {
  /** The draft being edited (its template is fixed); absent for a new package. */
  draft?: { templateName?: string };
  values: Record<string, string>;
  fieldErrors: Record<string, string>;
  /** The templates and flows of the chosen location's organization. */
  templates: TemplateOption[];
  templateId: string;
  onTemplateChange: (templateId: string) => void;
  flows: FlowOption[];
  hydrated: boolean;
}) {
  return (
    <FormSection id="what-heading" title="What" step={2}>
      <InputField
        id="signing-title"
        name="title"
        label="Title"
        hint={draft ? undefined : "Optional: the template's name, or “Signing at <location>”, when left empty."}
        defaultValue={values.title ?? ""}
        maxLength={200}
        error={fieldErrors.title}
      />
      <div className="grid gap-4 md:grid-cols-2">
        {draft ? (
          <p className="text-sm text-slate-800">
            <span className="font-medium">Template:</span> {draft.templateName ?? "none"}
          </p>
        ) : (
          <div className="space-y-2">
            <SelectField
              id="signing-template"
              name="templateId"
              label="Template"
              hint="Optional: adds the template's documents and signer roles."
              value={templateId}
              onChange={(event) => onTemplateChange(event.currentTarget.value)}
              error={fieldErrors.templateId}
            >
              <option value="">No template</option>
              {templates.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </SelectField>
            {hydrated ? null : (
              <button type="submit" name="intent" value={rowIntent({ type: "template" })} className={buttonClass("secondary")}>
                Use the template&apos;s roles
              </button>
            )}
          </div>
        )}
        <SelectField id="signing-flow" name="flowId" label="Flow" defaultValue={values.flowId ?? ""} error={fieldErrors.flowId}>
          {draft && values.flowId ? null : <option value="">The organization&apos;s default flow</option>}
          {flows.map((f) => (
            <option key={f.id} value={f.id}>
              {f.name}
              {f.isDefault ? " (default)" : ""}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        id="signing-message"
        name="message"
        label="Message to signers"
        hint="Optional: shown in the invitation email and on the package page."
        defaultValue={values.message ?? ""}
        rows={3}
        maxLength={2000}
        error={fieldErrors.message}
      />
    </FormSection>
  );
}
