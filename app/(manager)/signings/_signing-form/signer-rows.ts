import type { SignerRow } from "./types";

/** The signer rows in a form's values (`signers.<i>.<field>`), in index order. */
export function signerRowsFromValues(values: Record<string, string>): SignerRow[] {
  const rows: SignerRow[] = [];
  for (let i = 0; values[`signers.${i}.name`] !== undefined || values[`signers.${i}.email`] !== undefined; i++) {
    const get = (field: string) => values[`signers.${i}.${field}`] ?? "";
    rows.push({
      ...(get("id") ? { id: get("id") } : {}),
      name: get("name"),
      email: get("email"),
      role: get("role") || "signer",
      routingOrder: get("routingOrder") || "1",
      ...(get("label") ? { label: get("label") } : {}),
    });
  }
  return rows;
}

/** A row nobody typed into is left out of the save (the form always offers one empty row). */
export function isBlankRow(row: Pick<SignerRow, "name" | "email">): boolean {
  return row.name.trim() === "" && row.email.trim() === "";
}

export function signerRowsToValues(rows: SignerRow[], values: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) if (!key.startsWith("signers.")) out[key] = value;
  rows.forEach((row, i) => {
    for (const [field, value] of Object.entries(row)) if (value !== undefined) out[`signers.${i}.${field}`] = String(value);
  });
  return out;
}
