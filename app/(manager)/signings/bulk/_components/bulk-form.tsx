"use client";

import Link from "next/link";
import { useActionState, useState, useTransition } from "react";
import { buttonClass } from "@/components/ui/button-class";
import { SelectField, TextAreaField } from "@/components/ui/field";
import { executionModeLabel } from "@/lib/closings/execution-mode-options";
import type { FlowOption, TemplateOption } from "../../_signing-form/types";
import { bulkSigningsAction, type BulkFormState, type BulkReport } from "../actions";

const IDLE: BulkFormState = { status: "idle" };

export function BulkForm({ templates, flows, batchId }: { templates: TemplateOption[]; flows: FlowOption[]; batchId: string }) {
  const [state, formAction, pending] = useActionState(bulkSigningsAction, IDLE);
  const report = state.status === "ok" ? state.data : undefined;
  const values = state.status === "error" ? state.values : {};
  const fieldErrors = state.status === "error" ? state.fieldErrors : {};
  const [templateId, setTemplateId] = useState(values.templateId ?? (templates.length === 1 ? templates[0]!.id : ""));
  const [flowId, setFlowId] = useState(values.flowId ?? "");
  const [, startTransition] = useTransition();
  // What was typed or read from a file since the last answer; a new answer brings its own text.
  const [edit, setEdit] = useState<{ after: BulkFormState; text: string }>();
  const shownCsv = edit && edit.after === state ? edit.text : (report?.csv ?? values.csv ?? "");
  const setCsv = (text: string) => setEdit({ after: state, text });
  const template = templates.find((t) => t.id === templateId);
  const bad = report ? report.rows.filter((r) => r.error).length : 0;
  const tone = state.status === "error" || (report && (!report.valid || report.failed > 0)) ? "text-red-800" : "text-green-800";

  return (
    <div className="space-y-6">
      <form
        action={formAction}
        onSubmit={(event) => {
          // Dispatched by hand once hydrated: React resets a form after its `action` runs, which puts a
          // controlled <select> back on its first option in the DOM while its state keeps the choice, so
          // "Create and send" after "Check rows" would post no template. Before hydration the form posts natively.
          event.preventDefault();
          const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
          startTransition(() => formAction(data));
        }}
        className="space-y-6 rounded-lg border border-slate-200 bg-white p-6 shadow-sm" noValidate>
        {/* This send's batch id: a resubmission (after a timeout, a double click) resumes it instead of sending again. */}
        <input type="hidden" name="batchId" value={report?.batchId ?? values.batchId ?? batchId} />
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField
            id="bulk-template"
            name="templateId"
            label="Template"
            hint={
              template
                ? `Documents: ${template.documents.map((d, i) => `${i + 1} ${d.name} (${executionModeLabel(d.executionMode)})`).join(", ") || "none"}; roles: ${template.roles.map((r) => r.label).join(", ") || "none"}`
                : undefined
            }
            value={templateId}
            onChange={(event) => setTemplateId(event.currentTarget.value)}
            error={fieldErrors.templateId}
            required
          >
            <option value="">Choose a template…</option>
            {templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </SelectField>
          <SelectField
            id="bulk-flow"
            name="flowId"
            label="Flow"
            value={flowId}
            onChange={(event) => setFlowId(event.currentTarget.value)}
            error={fieldErrors.flowId}
          >
            <option value="">The organization&apos;s default flow</option>
            {flows
              .filter((f) => !template || f.organizationId === template.organizationId)
              .map((f) => (
                <option key={f.id} value={f.id}>
                  {f.name}
                  {f.isDefault ? " (default)" : ""}
                </option>
              ))}
          </SelectField>
        </div>
        <div className="space-y-1">
          <label htmlFor="bulk-csv-file" className="block text-sm font-medium text-slate-900">
            CSV file
          </label>
          <input
            id="bulk-csv-file"
            name="csvFile"
            type="file"
            accept=".csv,text/csv"
            aria-describedby="bulk-csv-file-hint"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              if (file) void file.text().then(setCsv);
            }}
            className="block text-sm text-slate-900 file:mr-3 file:rounded-md file:border file:border-slate-400 file:bg-white file:px-3 file:py-1.5 file:text-sm file:font-semibold"
          />
          <p id="bulk-csv-file-hint" className="text-xs text-slate-600">
            Or paste the rows below. A chosen file replaces the text. At most 1 MiB and 500 rows.
          </p>
        </div>
        <TextAreaField
          id="bulk-csv"
          name="csv"
          label="Signers (CSV)"
          hint="First line: name,email,location. Optional columns: package (rows with the same value become one package), role (a template role's key), title, auth_method (how the signer proves who they are: link, email_code, access_code, sms_code or account; empty: the template's), access_code (required with access_code), phone (required with sms_code, e.g. +15125550123), language (en or es; empty: the organization's default), document_modes (how the template's documents are signed: document=mode pairs separated by “;”, each document by its name or number, each mode esign, wet_sign, notarize or review_only, e.g. “Note.pdf=wet_sign; 2=review_only”; documents not named keep the template's mode)."
          rows={8}
          value={shownCsv}
          onChange={(event) => setCsv(event.currentTarget.value)}
          className="font-mono text-sm"
          error={fieldErrors.csv}
          spellCheck={false}
        />
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="preview" disabled={pending} className={buttonClass("secondary")}>
            Check rows
          </button>
          <button type="submit" name="intent" value="send" disabled={pending} className={buttonClass("primary")}>
            {pending ? "Working…" : "Create and send"}
          </button>
        </div>
        <p role="status" aria-live="polite" className={`text-sm font-medium empty:hidden ${tone}`}>
          {state.status !== "idle" && state.message ? state.message : ""}
        </p>
      </form>
      {report ? <Report report={report} bad={bad} /> : null}
    </div>
  );
}

const OUTCOME: Record<string, string> = { sent: "Sent", already_sent: "Sent earlier", failed: "Not created", not_created: "Not created" };

function Report({ report, bad }: { report: BulkReport; bad: number }) {
  return (
    <section aria-labelledby="bulk-report-heading" className="space-y-3">
      <h2 id="bulk-report-heading" className="text-lg font-semibold text-slate-900">
        {report.kind === "preview" ? "Check of the rows" : "Report"}
      </h2>
      {report.kind === "preview" && bad > 0 ? (
        <p className="text-sm text-slate-800">Fix the rows marked below and check again. Nothing is created while a row is wrong.</p>
      ) : null}
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-left text-sm" data-testid="bulk-report">
          <caption className="sr-only">{report.kind === "preview" ? "Each row of the CSV and whether it is ready" : "What happened to each row"}</caption>
          <thead className="bg-slate-50 text-xs font-semibold uppercase tracking-wide text-slate-700">
            <tr>
              <th scope="col" className="px-4 py-3">Line</th>
              <th scope="col" className="px-4 py-3">Name</th>
              <th scope="col" className="px-4 py-3">Email</th>
              <th scope="col" className="px-4 py-3">Location</th>
              <th scope="col" className="px-4 py-3">Package</th>
              <th scope="col" className="px-4 py-3">Result</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {report.rows.map((row) => (
              <tr key={row.line} className={row.error ? "bg-red-50" : undefined}>
                <th scope="row" className="px-4 py-3 font-medium text-slate-900">{row.line}</th>
                <td className="whitespace-nowrap px-4 py-3 text-slate-900">{row.name}</td>
                <td className="px-4 py-3 text-slate-900">{row.email}</td>
                <td className="whitespace-nowrap px-4 py-3 text-slate-900">{row.location}</td>
                <td className="px-4 py-3 text-slate-700">{row.packageKey}</td>
                <td className="px-4 py-3">
                  {row.error ? (
                    <span className="font-medium text-red-800">Error: {row.error}</span>
                  ) : (row.outcome === "sent" || row.outcome === "already_sent") && row.packageId ? (
                    <span className="text-green-900">
                      {OUTCOME[row.outcome]}:{" "}
                      <Link href={`/signings/${row.packageId}`} className="text-blue-800 underline">
                        {row.title}
                      </Link>
                    </span>
                  ) : row.outcome ? (
                    <span className="text-slate-800">{OUTCOME[row.outcome]}</span>
                  ) : (
                    <span className="text-green-900">Ready</span>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
