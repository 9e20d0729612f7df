import { z } from "@hono/zod-openapi";
import { fieldTypeEnum } from "@/db/schema/document-fields";
import { MAX_FIELDS_PER_DOCUMENT, MAX_TEXT_VALUE, MIN_FIELD_SIZE } from "@/lib/fields/field-limits";
import { IsoDateTime, SafeString } from "./common";

// Fields placed on document pages (package documents per signer, template documents per role) and
// the values a signer sends with an e-signature. Coordinates are PDF user space (points, origin at
// the page's bottom-left, measured from the page's CropBox corner).

export const FieldTypeSchema = z.enum(fieldTypeEnum.enumValues).openapi({
  description: "signature and initials are drawn from the signer's adopted signature; date_signed and full_name are set by the service when the signer signs",
});

const coordinate = (description: string) =>
  z.number({ error: "expected a number of points" }).finite().min(0).max(14_400).openapi({ description });
const size = (description: string) =>
  z.number({ error: "expected a number of points" }).finite().min(MIN_FIELD_SIZE, { error: `must be at least ${MIN_FIELD_SIZE} points` }).max(14_400).openapi({ description });

const placement = {
  type: FieldTypeSchema,
  page: z.number().int({ error: "expected a page number" }).min(1).max(100_000).openapi({ description: "1-based page number" }),
  x: coordinate("Left edge, points from the page's left (CropBox)"),
  y: coordinate("Bottom edge, points from the page's bottom (CropBox)"),
  width: size("Width in points"),
  height: size("Height in points"),
  required: z.boolean().default(true).openapi({ description: "A required field must be filled before the signer can sign the document (default true)" }),
  label: SafeString.trim().max(100).nullable().optional().openapi({ description: "Shown to the signer, e.g. “Vehicle VIN”" }),
};

const Id = SafeString.max(100);

export const PackageFieldInputSchema = z.strictObject({ signerId: Id.openapi({ description: "A signer of the package" }), ...placement }).openapi("PackageFieldInput");
export const TemplateFieldInputSchema = z
  .strictObject({ roleKey: SafeString.max(64).openapi({ description: "The key of one of the template's roles", example: "buyer" }), ...placement })
  .openapi("TemplateFieldInput");

export const ReplacePackageFieldsSchema = z
  .strictObject({ fields: z.array(PackageFieldInputSchema).max(MAX_FIELDS_PER_DOCUMENT, { error: `at most ${MAX_FIELDS_PER_DOCUMENT} fields per document` }) })
  .openapi("ReplacePackageFieldsRequest");
export const ReplaceTemplateFieldsSchema = z
  .strictObject({ fields: z.array(TemplateFieldInputSchema).max(MAX_FIELDS_PER_DOCUMENT, { error: `at most ${MAX_FIELDS_PER_DOCUMENT} fields per document` }) })
  .openapi("ReplaceTemplateFieldsRequest");

const fieldOut = {
  id: z.string(),
  documentId: z.string(),
  type: FieldTypeSchema,
  page: z.number().int(),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  required: z.boolean(),
  label: z.string().nullable(),
};

export const PackageFieldSchema = z
  .object({
    ...fieldOut,
    signerId: z.string(),
    value: z.string().nullable().openapi({ description: "What is stamped: the text, \"true\"/\"false\", the date or name as shown, the initials; null for signature fields and until filled" }),
    filledAt: IsoDateTime.nullable(),
  })
  .openapi("PackageField");
export const PackageFieldListSchema = z.object({ data: z.array(PackageFieldSchema) }).openapi("PackageFieldList");

export const TemplateFieldSchema = z.object({ ...fieldOut, roleKey: z.string() }).openapi("TemplateField");
export const TemplateFieldListSchema = z.object({ data: z.array(TemplateFieldSchema) }).openapi("TemplateFieldList");

export const FieldValueInputSchema = z
  .strictObject({
    id: Id.openapi({ description: "A field of the caller on this document" }),
    value: z.union([SafeString.max(MAX_TEXT_VALUE, { error: `at most ${MAX_TEXT_VALUE} characters` }), z.boolean()]).openapi({
      description: "text: the text; checkbox: true/false; initials: the initials. signature, date_signed and full_name take no value",
    }),
  })
  .openapi("FieldValue");

export const FieldValuesSchema = z
  .array(FieldValueInputSchema)
  .max(MAX_FIELDS_PER_DOCUMENT)
  .refine((values) => new Set(values.map((v) => v.id)).size === values.length, { error: "each field id once" })
  .openapi({ description: "Values of the caller's fields on this document; required text, checkbox and initials fields must be filled (409 otherwise)" });
