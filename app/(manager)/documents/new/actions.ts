"use server";

import { redirect } from "next/navigation";
import { validatedAction } from "@/app/_lib/validated-action";
import { CreateDocumentSchema } from "@/lib/api/schemas/documents";
import { createChattelDocument } from "@/lib/chattel-documents/create-chattel-document";
import { requestEvidence } from "@/app/_lib/request-evidence";

const CONTACT_ROWS = 3;

function text(formData: FormData, name: string): string | undefined {
  const value = formData.get(name);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function contacts(formData: FormData, prefix: string): { name: string | null; email: string }[] {
  const rows: { name: string | null; email: string }[] = [];
  for (let i = 0; i < CONTACT_ROWS; i++) {
    const name = text(formData, `${prefix}.${i}.name`);
    const email = text(formData, `${prefix}.${i}.email`);
    // A name without an address is sent on, so the schema says the address is missing.
    if (name || email) rows.push({ name: name ?? null, email: email ?? "" });
  }
  return rows;
}

/** The form as the body `POST /v1/documents` takes: empty fields left out, the place split into its id. */
function toCreateInput(formData: FormData): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name of ["title", "type", "borrowerName", "borrowerEmail", "collateralMake", "collateralModel", "collateralSerial", "notes", "signingPackageId"]) {
    const value = text(formData, name);
    if (value !== undefined) input[name] = value;
  }
  const year = text(formData, "collateralYear");
  if (year !== undefined) input.collateralYear = /^\d+$/.test(year.trim()) ? Number(year) : year;
  const place = /^(organization|company|location):(\d+)$/.exec(text(formData, "place") ?? "");
  if (place) input[`${place[1]}Id`] = Number(place[2]);
  input.coBorrowers = contacts(formData, "coBorrowers");
  input.dealerContacts = contacts(formData, "dealerContacts");
  return input;
}

export const createDocumentAction = validatedAction(
  CreateDocumentSchema,
  async ({ organizationId, companyId, locationId, ...fields }, { db, principal }) => {
    const { ipAddress } = await requestEvidence();
    const created = await createChattelDocument(db, { principal, organizationId, companyId, locationId, fields, ipAddress });
    redirect(`/documents/${created.id}`);
  },
  { returnTo: "/documents/new", toInput: toCreateInput },
);
