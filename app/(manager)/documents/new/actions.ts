"use server";

import { redirect } from "next/navigation";
import { validatedAction } from "@/app/_lib/validated-action";
import { CreateDocumentSchema } from "@/lib/api/schemas/documents";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import type { FormFields } from "@/app/_lib/form-fields";

const CONTACT_ROWS = 3;

/** A text input as sent, or undefined when it is missing or blank (the body leaves it out). */
function filled(fields: FormFields, name: string): string | undefined {
  const value = fields.text(name);
  return value !== undefined && value.trim() !== "" ? value : undefined;
}

function contacts(fields: FormFields, prefix: string): { name: string | null; email: string }[] {
  const rows: { name: string | null; email: string }[] = [];
  for (let i = 0; i < CONTACT_ROWS; i++) {
    const name = filled(fields, `${prefix}.${i}.name`);
    const email = filled(fields, `${prefix}.${i}.email`);
    // A name without an address is sent on, so the schema says the address is missing.
    if (name || email) rows.push({ name: name ?? null, email: email ?? "" });
  }
  return rows;
}

/** The form as the body `POST /v1/documents` takes: empty fields left out, the place split into its id. */
function toCreateInput(_formData: FormData, fields: FormFields): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of ["title", "type", "borrowerName", "borrowerEmail", "collateralMake", "collateralModel", "collateralSerial", "notes", "signingPackageId"]) {
    const value = filled(fields, name);
    if (value !== undefined) input[name] = value;
  }
  const year = filled(fields, "collateralYear");
  if (year !== undefined) input.collateralYear = /^\d+$/.test(year.trim()) ? Number(year) : year;
  const place = /^(organization|company|location):(\d+)$/.exec(filled(fields, "place") ?? "");
  if (place) input[`${place[1]}Id`] = Number(place[2]);
  input.coBorrowers = contacts(fields, "coBorrowers");
  input.dealerContacts = contacts(fields, "dealerContacts");
  return input;
}

export const createDocumentAction = validatedAction(
  CreateDocumentSchema,
  async ({ organizationId, companyId, locationId, ...fields }, { db, principal, evidence: { ipAddress } }) => {
    const created = await createChattelDocument(db, { principal, organizationId, companyId, locationId, fields, ipAddress });
    redirect(`/documents/${created.id}`);
  },
  { returnTo: "/documents/new", toInput: toCreateInput },
);
