import "server-only";
import type { Db } from "@/db/client";
import { canAccess, hasCapability, type Principal } from "@/lib/auth/principal";
import { listCompanies } from "@/lib/companies/list-companies";
import { listFlows } from "@/lib/flows/list-flows";
import { listLocations } from "@/lib/locations/list-locations";
import { listOrganizations } from "@/lib/organizations/list-organizations";
import { getTemplateDetail } from "@/lib/templates/get-template-detail";
import { listTemplates } from "@/lib/templates/list-templates";
import type { FlowOption, PlaceOption, TemplateOption } from "./types";

const LIMIT = 100;

/**
 * The choices of the package form, read through the same functions as /v1: the locations the
 * manager may send from (grouped "organization › company"), the templates with their roles and
 * document names, and the flows.
 */
export async function loadFormOptions(db: Db, principal: Principal): Promise<{ places: PlaceOption[]; templates: TemplateOption[]; flows: FlowOption[] }> {
  const [locations, companies, organizations, templates, flows] = await Promise.all([
    listLocations(db, { principal, limit: LIMIT }),
    hasCapability(principal, "companies:read") ? listCompanies(db, { principal, limit: LIMIT }) : null,
    hasCapability(principal, "organizations:read") ? listOrganizations(db, { principal, limit: LIMIT }) : null,
    hasCapability(principal, "templates:read") ? listTemplates(db, { principal, limit: LIMIT }) : null,
    hasCapability(principal, "flows:read") ? listFlows(db, { principal, limit: LIMIT }) : null,
  ]);
  const companyName = new Map(companies?.rows.map((c) => [c.id, c.name]));
  const organizationName = new Map(organizations?.rows.map((o) => [o.id, o.name]));
  const places = locations.rows
    .filter((l) => canAccess(principal, "signings:write", { organizationId: l.organizationId, companyId: l.companyId, locationId: l.id }))
    .map((l) => ({
      id: l.id,
      organizationId: l.organizationId,
      label: l.name,
      group: `${organizationName.get(l.organizationId) ?? `Organization ${l.organizationId}`} › ${companyName.get(l.companyId) ?? `Company ${l.companyId}`}`,
    }))
    .sort((a, b) => a.group.localeCompare(b.group) || a.label.localeCompare(b.label));
  const details = await Promise.all((templates?.rows ?? []).map((t) => getTemplateDetail(db, { principal, templateId: t.id })));
  return {
    places,
    templates: details
      .map((t) => ({
        id: t.id,
        organizationId: t.organizationId,
        name: t.name,
        roles: t.roles,
        signerAuthMethod: t.signerAuthMethod,
        documentNames: t.documents.map((d) => d.name),
        documents: t.documents.map((d) => ({ id: d.id, name: d.name, executionMode: d.executionMode })),
      }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    flows: (flows?.rows ?? [])
      .map((f) => ({ id: f.id, organizationId: f.organizationId, name: f.name, isDefault: f.isDefault }))
      .sort((a, b) => Number(b.isDefault) - Number(a.isDefault) || a.name.localeCompare(b.name)),
  };
}
