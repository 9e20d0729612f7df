import { z } from "zod";
import type { NewSigningPackage, SigningPackage } from "@/db/schema";

const Moment = z.iso.datetime({ offset: true, error: "expected a date and time (UTC), as an ISO 8601 date-time with an offset" });

/** The same schema for `/v1` bodies and the console's form. Times are ISO 8601 with an offset. */
export const closingAppointmentSchema = z
  .object({
    closingAt: Moment.nullable().optional(),
    closingPlace: z.string().trim().max(500).nullable().optional(),
    settlementAgent: z.string().trim().max(200).nullable().optional(),
    esignOpensAt: Moment.nullable().optional(),
  })
  .strict();
export type ClosingAppointmentInput = z.infer<typeof closingAppointmentSchema>;

/** The package columns an appointment input sets; a key left out is left unchanged, `null` clears it. */
export function appointmentColumns(input: ClosingAppointmentInput | undefined): Partial<NewSigningPackage> {
  if (!input) return {};
  const columns: Partial<NewSigningPackage> = {};
  if (input.closingAt !== undefined) columns.closingAt = input.closingAt === null ? null : new Date(input.closingAt);
  if (input.closingPlace !== undefined) columns.closingPlace = input.closingPlace || null;
  if (input.settlementAgent !== undefined) columns.settlementAgent = input.settlementAgent || null;
  if (input.esignOpensAt !== undefined) columns.esignOpensAt = input.esignOpensAt === null ? null : new Date(input.esignOpensAt);
  return columns;
}

export function serializeAppointment(signing: Pick<SigningPackage, "closingAt" | "closingPlace" | "settlementAgent" | "esignOpensAt">) {
  return {
    closingAt: signing.closingAt?.toISOString() ?? null,
    closingPlace: signing.closingPlace,
    settlementAgent: signing.settlementAgent,
    esignOpensAt: signing.esignOpensAt?.toISOString() ?? null,
  };
}

/**
 * The appointment fields of a console form (`closingAt`, `closingPlace`, `settlementAgent`,
 * `esignOpensAt`) as the API's appointment input. A `datetime-local` value is read as UTC, like every
 * time the product shows; anything else is passed on as typed for the schema to refuse. Empty is
 * `null` (cleared).
 */
export function appointmentFromForm(formData: FormData): Record<keyof ClosingAppointmentInput, string | null> {
  const text = (name: string) => {
    const value = formData.get(name);
    return typeof value === "string" && value.trim() ? value.trim() : null;
  };
  const moment = (name: string) => {
    const value = text(name);
    if (value === null || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return value;
    return `${value.length === 16 ? `${value}:00` : value}Z`;
  };
  return { closingAt: moment("closingAt"), closingPlace: text("closingPlace"), settlementAgent: text("settlementAgent"), esignOpensAt: moment("esignOpensAt") };
}

/** A stored moment as a `datetime-local` value in UTC (empty for none). */
export const dateTimeLocalValue = (moment: Date | null | undefined): string => (moment ? moment.toISOString().slice(0, 16) : "");
