"use client";

import { controlClass } from "@/components/ui/classes";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import type { RoleRow } from "../template-input";
import { PROOF_METHODS } from "../../signings/_signing-form/signer-proof-select";

type Row = RoleRow & { uid: number };

/**
 * A template's signer roles as rows of inputs named `roles.<i>.<field>`, so the form posts them in
 * the order shown. Add, remove and move up/down need JavaScript; without it the rows as rendered are
 * saved. Signers with the same routing order sign in parallel; a higher number waits for the lower.
 */
export function RolesEditor({ idPrefix, initial, errors }: { idPrefix: string; initial: RoleRow[]; errors: Record<string, string> }) {
  const nextUid = useRef(initial.length);
  const [rows, setRows] = useState<Row[]>(() => initial.map((row, uid) => ({ ...row, uid })));
  const [announcement, setAnnouncement] = useState("");

  const nameOf = (row: Row, index: number) => row.label.trim() || `role ${index + 1}`;
  const update = (uid: number, field: keyof RoleRow, value: string) => setRows((current) => current.map((r) => (r.uid === uid ? { ...r, [field]: value } : r)));
  const move = (index: number, by: -1 | 1) => {
    const target = index + by;
    if (target < 0 || target >= rows.length) return;
    const next = [...rows];
    [next[index], next[target]] = [next[target]!, next[index]!];
    setRows(next);
    setAnnouncement(`${nameOf(rows[index]!, index)} moved to position ${target + 1} of ${rows.length}.`);
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-role-${rows[index]!.uid}-${by < 0 ? "up" : "down"}`)?.focus());
  };
  const remove = (index: number) => {
    setAnnouncement(`${nameOf(rows[index]!, index)} removed.`);
    setRows(rows.filter((_, i) => i !== index));
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-add-role`)?.focus());
  };
  const add = () => {
    const uid = nextUid.current++;
    const order = rows.reduce((max, r) => Math.max(max, Number(r.routingOrder) || 0), 0) + 1;
    setRows([...rows, { uid, key: "", label: "", role: rows.length === 0 ? "signer" : "co_signer", routingOrder: String(order) }]);
    requestAnimationFrame(() => document.getElementById(`${idPrefix}-role-${uid}-key`)?.focus());
  };

  return (
    <fieldset className="space-y-3" aria-describedby={errors.roles ? `${idPrefix}-roles-error` : `${idPrefix}-roles-hint`}>
      <legend className="text-sm font-medium text-slate-900">Signer roles</legend>
      <p id={`${idPrefix}-roles-hint`} className="text-xs text-slate-600">
        The people a package from this template needs, in order. Roles with the same routing order sign at the same time; a higher
        number waits for the lower ones.
      </p>
      {errors.roles ? (
        <p id={`${idPrefix}-roles-error`} className="text-sm text-red-800">
          {errors.roles}
        </p>
      ) : null}
      {rows.length === 0 ? <p className="text-sm text-slate-700">No roles yet.</p> : null}
      <ol className="space-y-3">
        {rows.map((row, index) => {
          const id = (field: string) => `${idPrefix}-role-${row.uid}-${field}`;
          const error = (field: string) => errors[`roles.${index}.${field}`];
          const described = (field: string) => (error(field) ? `${id(field)}-error` : undefined);
          const label = nameOf(row, index);
          // The schema's errors name one request (`roles.<i>.attachments.<j>.name`); the first one shows under the box.
          const attachmentsError =
            error("attachments") ?? Object.entries(errors).find(([key]) => key.startsWith(`roles.${index}.attachments.`))?.[1];
          return (
            <li key={row.uid} className="rounded-md border border-slate-200 bg-slate-50 p-3" aria-label={`Role ${index + 1}: ${label}`}>
              <div className="grid gap-3 md:grid-cols-[1fr_1fr_10rem_7rem]">
                {(
                  [
                    ["key", "Key", "text"],
                    ["label", "Label", "text"],
                  ] as const
                ).map(([field, name]) => (
                  <div key={field} className="space-y-1">
                    <label htmlFor={id(field)} className="block text-sm font-medium text-slate-900">
                      {name} <span className="sr-only">of role {index + 1}</span>
                    </label>
                    <input
                      id={id(field)}
                      name={`roles.${index}.${field}`}
                      value={row[field]}
                      onChange={(e) => update(row.uid, field, e.target.value)}
                      maxLength={field === "key" ? 64 : 100}
                      placeholder={field === "key" ? "buyer" : "Buyer"}
                      aria-invalid={error(field) ? true : undefined}
                      aria-describedby={described(field)}
                      className={controlClass}
                    />
                    {error(field) ? (
                      <p id={`${id(field)}-error`} className="text-sm text-red-800">
                        {error(field)}
                      </p>
                    ) : null}
                  </div>
                ))}
                <div className="space-y-1">
                  <label htmlFor={id("role")} className="block text-sm font-medium text-slate-900">
                    Signs as <span className="sr-only">(role {index + 1})</span>
                  </label>
                  <select
                    id={id("role")}
                    name={`roles.${index}.role`}
                    value={row.role}
                    onChange={(e) => update(row.uid, "role", e.target.value)}
                    aria-invalid={error("role") ? true : undefined}
                    aria-describedby={described("role")}
                    className={controlClass}
                  >
                    <option value="signer">Borrower</option>
                    <option value="co_signer">Co-borrower</option>
                  </select>
                  {error("role") ? (
                    <p id={`${id("role")}-error`} className="text-sm text-red-800">
                      {error("role")}
                    </p>
                  ) : null}
                </div>
                <div className="space-y-1">
                  <label htmlFor={id("routingOrder")} className="block text-sm font-medium text-slate-900">
                    Routing order <span className="sr-only">of role {index + 1}</span>
                  </label>
                  <input
                    id={id("routingOrder")}
                    name={`roles.${index}.routingOrder`}
                    type="number"
                    min={1}
                    max={100}
                    inputMode="numeric"
                    value={row.routingOrder}
                    onChange={(e) => update(row.uid, "routingOrder", e.target.value)}
                    aria-invalid={error("routingOrder") ? true : undefined}
                    aria-describedby={described("routingOrder")}
                    className={controlClass}
                  />
                  {error("routingOrder") ? (
                    <p id={`${id("routingOrder")}-error`} className="text-sm text-red-800">
                      {error("routingOrder")}
                    </p>
                  ) : null}
                </div>
              </div>
              <div className="mt-3 space-y-1 md:max-w-md">
                <label htmlFor={id("authMethod")} className="block text-sm font-medium text-slate-900">
                  Proves who they are with <span className="sr-only">(role {index + 1})</span>
                </label>
                <select
                  id={id("authMethod")}
                  name={`roles.${index}.authMethod`}
                  value={row.authMethod ?? ""}
                  onChange={(e) => update(row.uid, "authMethod", e.target.value)}
                  aria-invalid={error("authMethod") ? true : undefined}
                  aria-describedby={described("authMethod")}
                  className={controlClass}
                >
                  <option value="">The template&apos;s method</option>
                  {PROOF_METHODS.map((m) => (
                    <option key={m.value} value={m.value}>
                      {m.label}
                    </option>
                  ))}
                </select>
                {error("authMethod") ? (
                  <p id={`${id("authMethod")}-error`} className="text-sm text-red-800">
                    {error("authMethod")}
                  </p>
                ) : null}
              </div>
              <div className="mt-3 space-y-1 md:max-w-xl">
                <label htmlFor={id("attachments")} className="block text-sm font-medium text-slate-900">
                  Documents to ask for <span className="sr-only">(role {index + 1})</span>
                </label>
                <p id={`${id("attachments")}-hint`} className="text-xs text-slate-600">
                  One per line, e.g. &quot;Driver&apos;s license, front and back&quot;; add &quot;| a description&quot; after the name and end a line
                  with &quot;(optional)&quot; for one that is not required.
                </p>
                <textarea
                  id={id("attachments")}
                  name={`roles.${index}.attachments`}
                  rows={2}
                  value={row.attachments ?? ""}
                  onChange={(e) => update(row.uid, "attachments", e.target.value)}
                  aria-invalid={attachmentsError ? true : undefined}
                  aria-describedby={[`${id("attachments")}-hint`, attachmentsError ? `${id("attachments")}-error` : null].filter(Boolean).join(" ")}
                  className={controlClass}
                />
                {attachmentsError ? (
                  <p id={`${id("attachments")}-error`} className="text-sm text-red-800">
                    {attachmentsError}
                  </p>
                ) : null}
              </div>
              <div className="mt-2 flex flex-wrap gap-2">
                <Button id={id("up")} variant="ghost" className="px-2 py-1" onClick={() => move(index, -1)} disabled={index === 0}>
                  Move up<span className="sr-only"> {label}</span>
                </Button>
                <Button id={id("down")} variant="ghost" className="px-2 py-1" onClick={() => move(index, 1)} disabled={index === rows.length - 1}>
                  Move down<span className="sr-only"> {label}</span>
                </Button>
                <Button variant="ghost" className="px-2 py-1 text-red-800" onClick={() => remove(index)}>
                  Remove<span className="sr-only"> {label}</span>
                </Button>
              </div>
            </li>
          );
        })}
      </ol>
      <Button id={`${idPrefix}-add-role`} variant="secondary" onClick={add}>
        Add role
      </Button>
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </fieldset>
  );
}
