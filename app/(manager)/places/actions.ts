"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import type { FormFields } from "@/app/_lib/form-fields";
import { validatedAction, type FormState } from "@/app/_lib/validated-action";
import {
  CreateCompanySchema,
  CreateLocationSchema,
  CreateOrganizationSchema,
  UpdateCompanySchema,
  UpdateLocationSchema,
  UpdateOrganizationSchema,
} from "@/lib/api/schemas/places";
import { createCompany } from "@/lib/companies/create-company";
import { deleteCompany } from "@/lib/companies/delete-company";
import { updateCompany } from "@/lib/companies/update-company";
import { createLocation } from "@/lib/locations/create-location";
import { deleteLocation } from "@/lib/locations/delete-location";
import { updateLocation } from "@/lib/locations/update-location";
import { createOrganization } from "@/lib/organizations/create-organization";
import { deleteOrganization } from "@/lib/organizations/delete-organization";
import { updateOrganization } from "@/lib/organizations/update-organization";

// The places console's writes: the /v1 schemas parse the form, the /v1 domain functions act.

const Nothing = z.object({});

const organizationPath = (id: number) => `/places/organizations/${id}`;
const companyPath = (id: number) => `/places/companies/${id}`;
const locationPath = (id: number) => `/places/locations/${id}`;

const createOrganizationForm = validatedAction(
  CreateOrganizationSchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const organization = await createOrganization(db, { principal, ...input, ipAddress });
    revalidatePath("/places");
    redirect(organizationPath(organization.id));
  },
  {
    returnTo: "/places",
    toInput: (_formData, fields) => {
      const slug = fields.optionalText("slug");
      return { name: fields.text("name"), ...(slug ? { slug } : {}) };
    },
  },
);

export async function updateOrganizationAction(organizationId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UpdateOrganizationSchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      await updateOrganization(db, { principal, organizationId, ...input, ipAddress });
      revalidatePath("/places", "layout");
      return { status: "ok", message: "Organization saved." };
    },
    { returnTo: organizationPath(organizationId), toInput: (_formData, fields) => ({ name: fields.text("name") }) },
  )(previous, formData);
}

export async function deleteOrganizationAction(organizationId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    Nothing,
    async (_input, { db, principal, evidence: { ipAddress } }) => {
      await deleteOrganization(db, { principal, organizationId, ipAddress });
      revalidatePath("/places");
      redirect("/places");
    },
    { returnTo: organizationPath(organizationId), toInput: () => ({}) },
  )(previous, formData);
}

const createCompanyForm = validatedAction(
  CreateCompanySchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const company = await createCompany(db, { principal, ...input, ipAddress });
    revalidatePath(organizationPath(company.organizationId));
    redirect(companyPath(company.id));
  },
  {
    returnTo: (formData) => `/places/organizations/${encodeURIComponent(String(formData.get("organizationId") ?? ""))}`,
    toInput: (_formData, fields) => ({ organizationId: fields.int("organizationId"), name: fields.text("name") }),
  },
);

export async function updateCompanyAction(companyId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UpdateCompanySchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      await updateCompany(db, { principal, companyId, ...input, ipAddress });
      revalidatePath("/places", "layout");
      return { status: "ok", message: "Company saved." };
    },
    { returnTo: companyPath(companyId), toInput: (_formData, fields) => ({ name: fields.text("name") }) },
  )(previous, formData);
}

export async function deleteCompanyAction(companyId: number, organizationId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    Nothing,
    async (_input, { db, principal, evidence: { ipAddress } }) => {
      await deleteCompany(db, { principal, companyId, ipAddress });
      revalidatePath(organizationPath(organizationId));
      redirect(organizationPath(organizationId));
    },
    { returnTo: companyPath(companyId), toInput: () => ({}) },
  )(previous, formData);
}

const locationFields = (_formData: FormData, fields: FormFields) => {
  const timezone = fields.optionalText("timezone");
  return {
    name: fields.text("name"),
    addressLine1: fields.optionalText("addressLine1"),
    city: fields.optionalText("city"),
    region: fields.optionalText("region"),
    postalCode: fields.optionalText("postalCode"),
    ...(timezone ? { timezone } : {}),
  };
};

const createLocationForm = validatedAction(
  CreateLocationSchema,
  async (input, { db, principal, evidence: { ipAddress } }) => {
    const location = await createLocation(db, { principal, ...input, ipAddress });
    revalidatePath(companyPath(location.companyId));
    redirect(locationPath(location.id));
  },
  {
    returnTo: (formData) => `/places/companies/${encodeURIComponent(String(formData.get("companyId") ?? ""))}`,
    toInput: (formData, fields) => ({ companyId: fields.int("companyId"), ...locationFields(formData, fields) }),
  },
);

export async function updateLocationAction(locationId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    UpdateLocationSchema,
    async (input, { db, principal, evidence: { ipAddress } }) => {
      await updateLocation(db, { principal, locationId, ...input, ipAddress });
      revalidatePath("/places", "layout");
      return { status: "ok", message: "Location saved." };
    },
    { returnTo: locationPath(locationId), toInput: locationFields },
  )(previous, formData);
}

export async function deleteLocationAction(locationId: number, companyId: number, previous: FormState, formData: FormData): Promise<FormState> {
  return validatedAction(
    Nothing,
    async (_input, { db, principal, evidence: { ipAddress } }) => {
      await deleteLocation(db, { principal, locationId, ipAddress });
      revalidatePath(companyPath(companyId));
      redirect(companyPath(companyId));
    },
    { returnTo: locationPath(locationId), toInput: () => ({}) },
  )(previous, formData);
}

export async function createOrganizationAction(previous: FormState, formData: FormData): Promise<FormState> {
  return createOrganizationForm(previous, formData);
}

export async function createCompanyAction(previous: FormState, formData: FormData): Promise<FormState> {
  return createCompanyForm(previous, formData);
}

export async function createLocationAction(previous: FormState, formData: FormData): Promise<FormState> {
  return createLocationForm(previous, formData);
}
