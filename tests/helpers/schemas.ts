import { z } from "zod";

// Strict response schemas shared by the HTTP tests: an unexpected or missing field fails the test.

/** The `{ "error": message }` body every error response carries. */
export const ErrorBody = z.strictObject({ error: z.string().min(1) });

/** A capped list page: `{ data, nextCursor }`, with `cap` when the caller's scope is capped. */
export const pageOf = <T extends z.ZodType>(item: T) =>
  z.strictObject({ data: z.array(item), nextCursor: z.string().nullable(), cap: z.number().int().optional() });
