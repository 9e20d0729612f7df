import { z } from "@hono/zod-openapi";
import { ERROR_REASONS, type ErrorReason } from "@/lib/errors";

const reasons = Object.keys(ERROR_REASONS) as [ErrorReason, ...ErrorReason[]];

export const ErrorReasonSchema = z.enum(reasons).openapi("ErrorReason", {
  description:
    "Why the request was refused, for code to branch on; present only on the errors that have one. " +
    "A reason never changes once published, while `error` is a sentence for people. " +
    reasons.map((reason) => `\`${reason}\`: ${ERROR_REASONS[reason]}`).join(" "),
});

export const ErrorSchema = z.object({ error: z.string(), reason: ErrorReasonSchema.optional() }).openapi("Error");

const error = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

/** Standard error responses, reused by every operation's OpenAPI description. */
export const errorResponses = {
  400: error("Invalid request body or parameters"),
  401: error("Missing, malformed, invalid or expired Bearer token"),
  403: error("The token is valid but its roles lack the permission"),
  404: error("The resource does not exist or is not visible to the caller"),
  409: error("The resource is already in the target state"),
  429: error("Too many requests: try again after the Retry-After seconds"),
  503: error("A required dependency is unavailable"),
} as const;

export function pickErrors<K extends keyof typeof errorResponses>(...codes: K[]): Pick<typeof errorResponses, K> {
  return Object.fromEntries(codes.map((code) => [code, errorResponses[code]])) as Pick<typeof errorResponses, K>;
}

/** C0 control characters other than tab, LF and CR: never meaningful in user text, and PostgreSQL cannot store U+0000. */
export const CONTROL_FREE = /^[^\u0000-\u0008\u000B\u000C\u000E-\u001F]*$/;
export const CONTROL_CHARACTER_ERROR = "must not contain control characters (U+0000 to U+001F other than tab, newline and carriage return)";

/** The string every request field, query and path parameter is built on: it refuses C0 controls with a 400. */
export const SafeString = z.string().regex(CONTROL_FREE, { error: CONTROL_CHARACTER_ERROR });

export const IsoDateTime = z.iso.datetime().openapi({ example: "2026-11-21T08:00:00.000Z" });

/**
 * `schema` or null, for a schema registered as a component. Zod's `.nullable()` on a registered schema
 * makes the generator rewrite the shared component itself as nullable (or wrap it in an `allOf` that
 * still forbids null), so the document would say null nowhere or everywhere; a union says it at the field.
 */
export const orNull = <T extends z.ZodType>(schema: T) => z.union([schema, z.null()]);

/** A JSON response for an operation's `responses`. */
export const jsonResponse = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { "application/json": { schema } },
});

/** A required JSON request body for an operation's `request.body`. */
export const jsonBody = <T extends z.ZodType>(schema: T) => ({ required: true, content: { "application/json": { schema } } });
