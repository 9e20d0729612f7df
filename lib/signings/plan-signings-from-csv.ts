import { asc, eq } from "drizzle-orm";
import type { z } from "zod";
import type { Db } from "@/db/client";
import { parseAttachmentRequestLines } from "@/lib/attachments/attachment-request-schema";
import { locations, templateDocuments, type ExecutionMode, type Location, type Template } from "@/db/schema";
import { executionModeEnum } from "@/db/schema/execution-modes";
import { canAccess, requireCapability, type Principal } from "@/lib/auth/principal";
import { getTemplateOrThrow } from "@/lib/templates/get-template-or-throw";
import type { NewSignerInput } from "./create-signing";
import { signerProofGaps } from "@/lib/signer-access/signer-proof-gaps";
import { parseSignerCsv } from "./parse-signer-csv";

/** The CSV column a signer field comes from, for the row's error. */
const COLUMN_OF_FIELD: Record<string, string> = { templateRole: "role", authMethod: "auth_method", accessCode: "access_code" };
const columnOf = (path: PropertyKey[]) => path.map((part) => COLUMN_OF_FIELD[String(part)] ?? String(part)).join(".");

export const SIGNER_CSV_COLUMNS = ["name", "email", "location"] as const;

const sorted = (modes: Record<string, string>) => Object.entries(modes).sort(([a], [b]) => a.localeCompare(b));

export type PlannedRow = {
  line: number;
  name: string;
  email: string;
  location: string;
  /** The package the row joins: the `package` cell, else the row's own. */
  packageKey: string;
  error?: string;
};

export type PlannedPackage = {
  key: string;
  title: string;
  location: Location;
  signers: NewSignerInput[];
  lines: number[];
  /** From the `document_modes` cell: a mode for some template documents (by template document id); the rest keep the template's. */
  documentModes: Record<string, ExecutionMode>;
  /** The line whose `document_modes` cell set them (rows of one package must agree). */
  documentModesLine?: number;
};

type TemplateDocumentRef = { id: string; name: string; position: number };

const MODES: readonly string[] = executionModeEnum.enumValues;

/**
 * Reads a `document_modes` cell: `document=mode` pairs separated by `;`, where the document is the
 * template document's name (case-insensitive; ".pdf" may be left off) or its number in the template
 * (1 is the first), e.g. `Note.pdf=wet_sign; 3=review_only`. Answers the modes by template document
 * id, or the row's error.
 */
export function parseDocumentModes(cell: string, documents: readonly TemplateDocumentRef[], templateName: string): { modes: Record<string, ExecutionMode> } | { error: string } {
  const modes: Record<string, ExecutionMode> = {};
  const bare = (name: string) => name.trim().toLowerCase().replace(/\.pdf$/, "");
  for (const part of cell.split(";").map((p) => p.trim()).filter(Boolean)) {
    const at = part.lastIndexOf("=");
    if (at <= 0) return { error: `document_modes: write each document as document=mode, separated by ";" (e.g. "Note.pdf=wet_sign; 2=review_only"), not "${part}".` };
    const which = part.slice(0, at).trim();
    const mode = part.slice(at + 1).trim().toLowerCase();
    const document = /^\d+$/.test(which) ? documents[Number(which) - 1] : documents.find((d) => bare(d.name) === bare(which));
    if (!document) {
      const names = documents.map((d, i) => `${i + 1} ${d.name}`).join(", ") || "none";
      return { error: `document_modes: the template "${templateName}" has no document "${which}" (its documents: ${names}).` };
    }
    if (!MODES.includes(mode)) return { error: `document_modes: "${part.slice(at + 1).trim()}" is not a mode for ${document.name}; use esign, wet_sign, notarize or review_only.` };
    if (modes[document.id] !== undefined) return { error: `document_modes: ${document.name} is given twice.` };
    modes[document.id] = mode as ExecutionMode;
  }
  return { modes };
}

export type SigningsPlan = { template: Template; rows: PlannedRow[]; packages: PlannedPackage[]; valid: boolean };

/**
 * Reads a bulk CSV (columns name, email, location; optional package, role, title, auth_method,
 * access_code, phone, language, document_modes, attachments) against a
 * template and checks every row before anything is created: the signer's name and email by the
 * caller's signer schema, the location by id or by name among the template organization's locations
 * the caller may send from, each email at most once in the file, one location per package, a role
 * the template has, and the access code or mobile number the signer's method of proof needs (their
 * `auth_method`, else their template role's, else the template's), and each `document_modes` pair
 * (`parseDocumentModes`). Rows sharing a `package` cell become one package (signers in row order, taking
 * the template's roles in order unless `role` names one); otherwise each row is its own package.
 */
export async function planSigningsFromCsv(
  db: Db,
  options: {
    principal: Principal;
    templateId: string;
    csv: string;
    /** The signer schema of the caller's interface (the API's `NewPackageSignerSchema`), applied to each row. */
    signerSchema: z.ZodType<NewSignerInput, unknown>;
  },
): Promise<SigningsPlan> {
  requireCapability(options.principal, "signings:write", "You do not have permission to create signing packages.");
  const template = await getTemplateOrThrow(db, { principal: options.principal, templateId: options.templateId, capability: "templates:read" });
  const { rows } = parseSignerCsv(options.csv, SIGNER_CSV_COLUMNS);
  const documents = await db
    .select({ id: templateDocuments.id, name: templateDocuments.name, position: templateDocuments.position })
    .from(templateDocuments)
    .where(eq(templateDocuments.templateId, template.id))
    .orderBy(asc(templateDocuments.position), asc(templateDocuments.id));
  const inScope = (await db.select().from(locations).where(eq(locations.organizationId, template.organizationId))).filter((location) =>
    canAccess(options.principal, "signings:write", { organizationId: location.organizationId, companyId: location.companyId, locationId: location.id }),
  );

  const planned: (PlannedRow & { locationRow?: Location; signer?: NewSignerInput; title?: string; documentModes?: Record<string, ExecutionMode> })[] = [];
  const firstLineOfEmail = new Map<string, number>();
  for (const { line, cells } of rows) {
    const row: (typeof planned)[number] = {
      line,
      name: cells.name ?? "",
      email: cells.email ?? "",
      location: cells.location ?? "",
      packageKey: cells.package || `row ${line}`,
      title: cells.title || undefined,
    };
    planned.push(row);
    const errors: string[] = [];
    const parsed = options.signerSchema.safeParse({
      name: row.name,
      email: row.email,
      ...(cells.role ? { templateRole: cells.role } : {}),
      ...(cells.auth_method ? { authMethod: cells.auth_method } : {}),
      ...(cells.access_code ? { accessCode: cells.access_code } : {}),
      ...(cells.phone ? { phone: cells.phone } : {}),
      // Optional `language` column (en or es); empty follows the organization's default.
      ...(cells.language ? { language: cells.language.toLowerCase() } : {}),
      // Optional `attachments` column: the documents asked of the signer, `;` between them, ` (optional)` after one they may skip.
      ...(cells.attachments?.trim() ? { attachments: parseAttachmentRequestLines(cells.attachments, /;/) } : {}),
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) errors.push(`${columnOf(issue.path) || "row"}: ${issue.message}`);
    } else {
      const email = parsed.data.email.toLowerCase();
      const earlier = firstLineOfEmail.get(email);
      if (earlier !== undefined) errors.push(`${parsed.data.email} is already on line ${earlier}; each email may appear only once.`);
      else firstLineOfEmail.set(email, line);
      if (parsed.data.templateRole && !template.roles.some((r) => r.key === parsed.data.templateRole)) {
        errors.push(`The template "${template.name}" has no role "${parsed.data.templateRole}".`);
      }
      row.signer = parsed.data;
    }
    if (cells.document_modes?.trim()) {
      const parsedModes = parseDocumentModes(cells.document_modes, documents, template.name);
      if ("error" in parsedModes) errors.push(parsedModes.error);
      else row.documentModes = parsedModes.modes;
    }
    const wanted = row.location.trim();
    const matches = /^\d+$/.test(wanted)
      ? inScope.filter((l) => l.id === Number(wanted))
      : inScope.filter((l) => l.name.trim().toLowerCase() === wanted.toLowerCase());
    if (!wanted) errors.push("location: give a location's name or id.");
    else if (matches.length === 0) errors.push(`Location "${wanted}" is not one you can send from with this template.`);
    else if (matches.length > 1) errors.push(`Location "${wanted}" names ${matches.length} locations; use its id.`);
    else row.locationRow = matches[0];
    if (errors.length > 0) row.error = errors.join(" ");
  }

  const packages = new Map<string, PlannedPackage>();
  for (const row of planned) {
    const existing = packages.get(row.packageKey);
    if (existing && row.locationRow && existing.location.id !== row.locationRow.id && !row.error) {
      row.error = `Package "${row.packageKey}" is at ${existing.location.name} (line ${existing.lines[0]}); all its rows need the same location.`;
    }
    if (row.error || !row.signer || !row.locationRow) continue;
    const pkg =
      existing ??
      ({ key: row.packageKey, title: "", location: row.locationRow, signers: [], lines: [], documentModes: {} } satisfies PlannedPackage);
    if (row.documentModes) {
      // One package, one set of modes: a later row may repeat the cell, not change it.
      if (pkg.documentModesLine !== undefined && JSON.stringify(sorted(row.documentModes)) !== JSON.stringify(sorted(pkg.documentModes))) {
        row.error = `document_modes: package "${row.packageKey}" already has other modes on line ${pkg.documentModesLine}; give them once, or the same on each row.`;
        continue;
      }
    }
    const role = row.signer.templateRole ? undefined : template.roles[pkg.signers.length];
    const signer = role ? { ...row.signer, templateRole: role.key } : row.signer;
    // The method the signer will have (theirs, else their template role's, else the template's) needs its code or number.
    const roleMethod = template.roles.find((r) => r.key === signer.templateRole)?.authMethod;
    const [gap] = signerProofGaps(template.signerAuthMethod, [
      { name: signer.name, authMethod: signer.authMethod ?? roleMethod, hasAccessCode: Boolean(signer.accessCode), hasPhone: Boolean(signer.phone) },
    ]);
    if (gap) {
      row.error = `${gap.field === "accessCode" ? "access_code" : "phone"}: ${gap.message}`;
      continue;
    }
    pkg.signers.push(signer);
    pkg.lines.push(row.line);
    if (row.documentModes && pkg.documentModesLine === undefined) {
      pkg.documentModes = row.documentModes;
      pkg.documentModesLine = row.line;
    }
    pkg.title ||= row.title ?? "";
    packages.set(row.packageKey, pkg);
  }
  for (const pkg of packages.values()) {
    const first = planned.find((row) => row.line === pkg.lines[0]);
    pkg.title ||= `${template.name} — ${first!.signer!.name}`;
  }
  return {
    template,
    rows: planned.map(({ line, name, email, location, packageKey, error }) => ({ line, name, email, location, packageKey, ...(error ? { error } : {}) })),
    packages: [...packages.values()],
    valid: planned.every((row) => !row.error),
  };
}
