import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { documentFields, type DocumentField } from "@/db/schema";
import { BadRequest, Conflict } from "@/lib/errors";
import { FIELD_ORDER } from "./field-order";
import { MAX_INITIALS, MAX_TEXT_VALUE } from "./field-limits";
import { formatSignedDate } from "./format-signed-date";
import { isFieldFilled } from "./is-field-filled";

export type FieldValueInput = { id: string; value: string | boolean };

/** How the 409 for unfilled required fields begins; the signer's page recognises it by this. */
export const MISSING_FIELDS_MESSAGE = "Fill the required fields before signing";

/**
 * Writes a signer's field values on one document as they sign it, in the signing transaction:
 * text, checkbox and initials from `values` (checked per type), `date_signed` (the signing day,
 * `formatSignedDate`) and `full_name` (the signer's name) by the service, `signature` fields stay
 * null (drawn from the e-signature). 400 for a value that is not theirs or not valid for its type;
 * 409 listing every required field left unfilled. A document without fields for the signer accepts
 * no values and changes nothing.
 */
export async function fillSignerFields(
  db: Db,
  options: { documentId: string; signer: { id: string; name: string }; values: readonly FieldValueInput[]; signedAt: Date },
): Promise<DocumentField[]> {
  const rows = await db
    .select()
    .from(documentFields)
    .where(and(eq(documentFields.documentId, options.documentId), eq(documentFields.signerId, options.signer.id)))
    .orderBy(...FIELD_ORDER);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const given = new Map<string, string | null>();
  for (const [i, input] of options.values.entries()) {
    const field = byId.get(input.id);
    if (!field) throw BadRequest(`fields[${i}].id: ${input.id.slice(0, 64)} is not one of your fields on this document.`, "invalid_field");
    if (given.has(field.id)) throw BadRequest(`fields[${i}].id: each field once.`, "invalid_field");
    given.set(field.id, normalizeValue(field, input.value, i));
  }

  const filled = rows.map((field) => ({ ...field, value: valueOf(field, given, options), filledAt: options.signedAt }));
  const missing = filled.filter((f) => f.required && !isFieldFilled(f));
  if (missing.length > 0) throw Conflict(`${MISSING_FIELDS_MESSAGE}: ${missing.map(describeField).join("; ")}.`, "missing_fields");

  for (const field of filled) {
    await db.update(documentFields).set({ value: field.value, filledAt: field.filledAt }).where(eq(documentFields.id, field.id));
  }
  return filled;
}

function valueOf(field: DocumentField, given: ReadonlyMap<string, string | null>, options: { signer: { name: string }; signedAt: Date }): string | null {
  switch (field.type) {
    case "signature":
      return null;
    case "date_signed":
      return formatSignedDate(options.signedAt);
    case "full_name":
      return options.signer.name;
    default:
      return given.get(field.id) ?? null;
  }
}

function normalizeValue(field: DocumentField, value: string | boolean, index: number): string | null {
  const at = `fields[${index}].value`;
  switch (field.type) {
    case "text": {
      if (typeof value !== "string") throw BadRequest(`${at}: a text field takes a string.`, "invalid_field");
      const text = value.trim();
      if (text.length > MAX_TEXT_VALUE) throw BadRequest(`${at}: at most ${MAX_TEXT_VALUE} characters.`, "invalid_field");
      return text.length > 0 ? text : null;
    }
    case "checkbox": {
      if (value === true || value === "true") return "true";
      if (value === false || value === "false") return "false";
      throw BadRequest(`${at}: a checkbox takes true or false.`, "invalid_field");
    }
    case "initials": {
      if (typeof value !== "string") throw BadRequest(`${at}: initials are a string.`, "invalid_field");
      const initials = value.trim();
      if (initials.length > MAX_INITIALS) throw BadRequest(`${at}: at most ${MAX_INITIALS} characters.`, "invalid_field");
      return initials.length > 0 ? initials : null;
    }
    default:
      throw BadRequest(`${at}: a ${field.type.replace("_", " ")} field is filled by the service; send no value for it.`, "invalid_field");
  }
}

function describeField(field: DocumentField): string {
  const name = field.label ? `${field.type.replace("_", " ")} "${field.label}"` : field.type.replace("_", " ");
  return `${name} on page ${field.page} (field ${field.id})`;
}
