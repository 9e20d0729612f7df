import { z } from "zod";

// Strict response schemas shared by the HTTP tests: an unexpected or missing field fails the test.

/** The reasons an error body may carry, written out here so a renamed reason fails the tests. */
export const ERROR_REASON_VALUES = [
  "document_changed",
  "out_of_turn",
  "missing_fields",
  "invalid_field",
  "consent_required",
  "already_signed",
  "already_declined",
  "package_closed",
] as const;

/** The `{ "error": message }` body every error response carries, with a machine `reason` on some. */
export const ErrorBody = z.strictObject({ error: z.string().min(1), reason: z.enum(ERROR_REASON_VALUES).optional() });

/** A capped list page: `{ data, nextCursor }`, with `cap` when the caller's scope is capped. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ data: z.array(item), nextCursor: z.string().nullable(), cap: z.number().int().optional() });
