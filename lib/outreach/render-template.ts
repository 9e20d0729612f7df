import { BadRequest } from "@/lib/errors";
import { TEMPLATE_VARIABLES, type TemplateVariable } from "./built-in-templates";

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/**
 * Replaces `{{variable}}` with its value (an empty string when the value is missing). With
 * `field`, an unknown variable is a 400 naming the field, so a typo is caught when the template
 * is saved or sent rather than mailed out literally.
 */
export function renderTemplate(template: string, values: Partial<Record<TemplateVariable, string | null>>, field?: string): string {
  if (field) {
    const unknown = [...template.matchAll(PLACEHOLDER)].map((m) => m[1]!).find((name) => !(TEMPLATE_VARIABLES as readonly string[]).includes(name));
    if (unknown) throw BadRequest(`${field}: unknown variable {{${unknown}}}. Known: ${TEMPLATE_VARIABLES.join(", ")}.`);
  }
  return template
    .replace(PLACEHOLDER, (_, name: string) => values[name as TemplateVariable] ?? "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
