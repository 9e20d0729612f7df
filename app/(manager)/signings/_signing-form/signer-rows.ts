import type { SignerRow } from "./types";

/**
 * The signer-row rules of the package form, in one place for both of its halves: the client form
 * applies them as you click (`signerRowsReducer` under `useState`), and without JavaScript the
 * server action applies the same ones on the round trip of a row button (`intent=add-signer`,
 * `remove:<i>`, `up:<i>`, `down:<i>`, `template`). Pure: no React, no database.
 */

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
      ...(get("language") ? { language: get("language") } : {}),
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

/** An empty row at routing order `order`. */
export const blankRow = (order: number): SignerRow => ({ name: "", email: "", role: "signer", routingOrder: String(order) });

/** A template's signer role, as the form applies it to a row. */
export type RoleTemplate = { label: string; role: string; routingOrder: number };

export type SignerRowAction =
  | { type: "add" }
  | { type: "remove"; index: number }
  | { type: "move"; index: number; by: -1 | 1 }
  | { type: "update"; index: number; change: Partial<SignerRow> }
  | { type: "template"; roles: RoleTemplate[] };

/** What a row button does; `template` applies the chosen template's roles (the server looks them up). */
export type RowButtonAction = Extract<SignerRowAction, { type: "add" | "remove" | "move" }> | { type: "template" };

/** A row button's `intent` value, which carries its action through a form post without JavaScript. */
export function rowIntent(action: RowButtonAction): string {
  if (action.type === "add") return "add-signer";
  if (action.type === "template") return "template";
  if (action.type === "remove") return `remove:${action.index}`;
  return `${action.by < 0 ? "up" : "down"}:${action.index}`;
}

/** The action of a posted `intent`, or undefined for anything else (save, send, garbage). */
export function parseRowIntent(intent: unknown): RowButtonAction | undefined {
  if (intent === "add-signer") return { type: "add" };
  if (intent === "template") return { type: "template" };
  const match = typeof intent === "string" ? /^(remove|up|down):(\d{1,3})$/.exec(intent) : null;
  if (!match || Number(match[2]) > 100) return undefined;
  const index = Number(match[2]);
  return match[1] === "remove" ? { type: "remove", index } : { type: "move", index, by: match[1] === "up" ? -1 : 1 };
}

/**
 * Applies one action to the rows. `adopt` turns a row the rules create into the caller's row type
 * (the client adds a React key); rows that already exist keep their identity (`id`, key).
 *
 * - add: a blank row one routing order after the last row's.
 * - remove: the row goes; removing the last one leaves a blank row at order 1.
 * - move: the row swaps places with its neighbour, and the two swap routing orders, so order
 *   numbers stay where they were on the page.
 * - template: the template's roles (label, role, order) fill the typed rows in turn, blank rows
 *   are dropped, typed rows beyond the roles follow; no roles (no template) changes nothing.
 */
export function signerRowsReducer<R extends SignerRow>(adopt: (row: SignerRow) => R): (rows: R[], action: SignerRowAction) => R[] {
  return (rows, action) => {
    switch (action.type) {
      case "add":
        return [...rows, adopt(blankRow((Number(rows.at(-1)?.routingOrder) || 0) + 1))];
      case "remove": {
        const next = rows.filter((_, i) => i !== action.index);
        return next.length > 0 ? next : [adopt(blankRow(1))];
      }
      case "move": {
        const a = rows[action.index];
        const b = rows[action.index + action.by];
        if (!a || !b) return rows;
        const next = [...rows];
        next[action.index] = { ...b, routingOrder: a.routingOrder };
        next[action.index + action.by] = { ...a, routingOrder: b.routingOrder };
        return next;
      }
      case "update":
        return rows.map((row, i) => (i === action.index ? { ...row, ...action.change } : row));
      case "template": {
        if (action.roles.length === 0) return rows;
        const typed = rows.filter((row) => !isBlankRow(row));
        const fromRoles = action.roles.map((role, i) => ({
          ...(typed[i] ?? adopt(blankRow(role.routingOrder))),
          role: role.role,
          routingOrder: String(role.routingOrder),
          label: role.label,
        }));
        return [...fromRoles, ...typed.slice(action.roles.length)];
      }
    }
  };
}
