import { z } from "zod";
import type { NewSigningPackage, SigningPackage } from "@/db/schema";

/** The same schema for `/v1` bodies and the console's form. Times are ISO 8601 with an offset. */
export const closingAppointmentSchema = z
  .object({
    closingAt: z.iso.datetime({ offset: true }).nullable().optional(),
    closingPlace: z.string().trim().max(500).nullable().optional(),
    settlementAgent: z.string().trim().max(200).nullable().optional(),
    esignOpensAt: z.iso.datetime({ offset: true }).nullable().optional(),
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
