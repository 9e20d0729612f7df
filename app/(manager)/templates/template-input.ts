// Shared by the template form (client) and its actions (server): the roles rows as form fields.

import { parseAttachmentRequestLines } from "@/lib/attachments/attachment-request-schema";

/**
 * A role row; `authMethod` empty follows the template's method of proof; `attachments` is the
 * documents asked of the signer taking the role, one per line as in the package form.
 */
export type RoleRow = { key: string; label: string; role: string; routingOrder: string; authMethod?: string; attachments?: string };

const ROW = /^roles\.(\d{1,2})\.(key|label|role|routingOrder|authMethod|attachments)$/;

/**
 * The roles rows of a template form, in row order, from its field names `roles.<i>.<field>` (a
 * FormData's entries, or the values a failed action echoed back). A blank row stays (and the schema
 * says what it lacks), so an error's path `roles.<i>.key` names the row the person sees.
 */
export function roleRowsFrom(entries: Iterable<[string, unknown]>): RoleRow[] {
  const rows = new Map<number, RoleRow>();
  for (const [name, value] of entries) {
    const match = ROW.exec(name);
    if (!match || typeof value !== "string") continue;
    const index = Number(match[1]);
    const row = rows.get(index) ?? { key: "", label: "", role: "signer", routingOrder: "" };
    row[match[2] as keyof RoleRow] = value;
    rows.set(index, row);
  }
  return [...rows.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, row]) => row);
}

/** A row as the API's TemplateRole input; the routing order as a number when it is one (the schema judges it). */
export function roleInput(row: RoleRow) {
  const order = row.routingOrder.trim();
  return {
    key: row.key,
    label: row.label,
    role: row.role,
    routingOrder: /^-?\d{1,4}$/.test(order) ? Number(order) : order,
    ...(row.authMethod ? { authMethod: row.authMethod } : {}),
    ...(row.attachments?.trim() ? { attachments: parseAttachmentRequestLines(row.attachments, /\r?\n/) } : {}),
  };
}
