import { z } from "@hono/zod-openapi";
import { IDENTIFICATION_TYPES } from "@/db/schema/in-person-signings";
import { IsoDateTime, SafeString } from "./common";

/** The identification the host checked, with the names and rules of the console's form (lib/in-person/identification.ts). */
export const InPersonIdentificationSchema = z
  .strictObject({
    idType: z.enum(IDENTIFICATION_TYPES, { error: "Choose the kind of identification you checked." }).openapi({
      description: "drivers_license, passport, state_id, military_id or other (another government ID)",
    }),
    idIssuer: SafeString.trim()
      .min(2, { error: "Say who issued the identification (e.g. Texas, or United States)." })
      .max(80, { error: "The issuer is at most 80 characters." })
      .openapi({ description: "Who issued it: a state or a country", example: "Texas" }),
    idLastFour: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9]{4}$/, { error: "Enter the last four letters or digits of the identification number (only those)." })
      .openapi({ description: "The last four letters or digits of its number, and only those (stored upper-case)", example: "4821" }),
  })
  .openapi("InPersonIdentification", {
    description: "What the host checked, face to face: the kind of identification, who issued it, the last four characters of its number. Never the whole number, never a photo.",
  });

export const CreateInPersonUrlSchema = z.strictObject({ identification: InPersonIdentificationSchema }).openapi("CreateInPersonSigningUrl");

export const InPersonUrlSchema = z
  .object({
    url: z.string().openapi({ example: "https://sign.example.com/in-person/3q2-7wEvsYq0zT9x2mGkQ1hJcP8bVnRtYw5uLsDfA0e" }),
    expiresAt: IsoDateTime,
  })
  .openapi("InPersonSigningUrl", {
    description:
      "A URL to open on the device at the desk, in its browser (not in a frame). It opens once, within five minutes, the signer's in-person " +
      "session; the API key's user is the host (docs/in-person-signing.md). Never send it to the signer.",
  });
