import { z } from "zod";
import { IDENTIFICATION_TYPES } from "@/db/schema/in-person-signings";

/** What the host checked, as the form and any other caller send it. */
export const IdentificationSchema = z.strictObject({
  idType: z.enum(IDENTIFICATION_TYPES, { error: "Choose the kind of identification you checked." }),
  idIssuer: z
    .string()
    .trim()
    .min(2, { error: "Say who issued the identification (e.g. Texas, or United States)." })
    .max(80, { error: "The issuer is at most 80 characters." }),
  idLastFour: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4}$/, { error: "Enter the last four letters or digits of the identification number (only those)." })
    .transform((v) => v.toUpperCase()),
});
export type Identification = z.output<typeof IdentificationSchema>;

export const IDENTIFICATION_LABELS: Record<Identification["idType"], string> = {
  drivers_license: "Driver's license",
  passport: "Passport",
  state_id: "State ID card",
  military_id: "Military ID",
  other: "Other government ID",
};
