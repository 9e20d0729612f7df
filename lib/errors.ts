import { describeDbError } from "@/lib/db/describe-db-error";

/**
 * The one error type and the one code → status table. Domain code throws these;
 * `toErrorResponse` is the only place that turns an error into `{ error, reason? }` and a status.
 */
export const ERROR_STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/**
 * Why a request was refused, for code to branch on (a form picks its sentence by it). The message is
 * for people and may change or be translated; a reason never changes once published.
 */
export type ErrorReason =
  | "document_changed"
  | "out_of_turn"
  | "missing_fields"
  | "invalid_field"
  | "consent_required"
  | "already_signed"
  | "already_declined"
  | "package_closed";

/**
 * What each reason means, for the OpenAPI document's `reason` enum. Typed as a record over every
 * reason, so adding one to `ErrorReason` without describing it here fails the typecheck.
 */
export const ERROR_REASONS: Record<ErrorReason, string> = {
  document_changed: "The document's SHA-256 differs from the one the signer viewed; reload it and review it again.",
  out_of_turn: "Signers earlier in the routing order have not signed yet.",
  missing_fields: "Required fields of the signer on this document are unfilled.",
  invalid_field: "A field value is not one of the signer's fields or not valid for its type.",
  consent_required: "Explicit consent to sign electronically is required.",
  already_signed: "The signer has already signed, so the request no longer applies.",
  already_declined: "The signer has declined this package.",
  package_closed: "The package is no longer open for signing (completed, declined, cancelled or expired).",
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): (typeof ERROR_STATUS)[ErrorCode] {
    return ERROR_STATUS[this.code];
  }
}

export const BadRequest = (message: string, reason?: ErrorReason) => new AppError("bad_request", message, {}, reason);
export const Unauthorized = (message: string) => new AppError("unauthorized", message);
export const Forbidden = (message: string, reason?: ErrorReason) => new AppError("forbidden", message, {}, reason);
export const NotFound = (message: string, reason?: ErrorReason) => new AppError("not_found", message, {}, reason);
export const Conflict = (message: string, reason?: ErrorReason) => new AppError("conflict", message, {}, reason);
export const Unavailable = (message: string) => new AppError("unavailable", message);
export const TooManyRequests = (message: string, retryAfterSeconds: number) =>
  new AppError("too_many_requests", message, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
/** The one message for an unparsable JSON body, in `/v1` and in the Next route handlers. */
export const INVALID_JSON_MESSAGE = "Request body is not valid JSON.";
export const InvalidJson = () => BadRequest(INVALID_JSON_MESSAGE);
export const MethodNotAllowed = (allowed: string[]) =>
  new AppError("method_not_allowed", `Method not allowed. Allowed: ${allowed.join(", ")}.`, { Allow: allowed.join(", ") });

/** The exact 401 texts the API contract promises. */
export const AUTH_ERRORS = {
  missing: "Missing Authorization Bearer token.",
  empty: "Empty bearer token.",
  invalid: "Invalid or expired token.",
} as const;

/** The wire body of every error: a sentence for people and, when the error has one, a stable reason for code. */
export type ErrorBody = { error: string; reason?: ErrorReason };

export type ErrorResponse = { status: number; body: ErrorBody; headers: Record<string, string> };

/** Seconds a client should wait before retrying while the database is unreachable. */
const DB_RETRY_AFTER_SECONDS = 5;

export function toErrorResponse(error: unknown, log: (error: unknown) => void = defaultLog): ErrorResponse {
  if (error instanceof AppError) {
    const body: ErrorBody = error.reason ? { error: error.message, reason: error.reason } : { error: error.message };
    return { status: error.status, body, headers: error.headers };
  }
  const dbError = describeDbError(error);
  if (dbError?.kind === "invalid_text") {
    return { status: 400, body: { error: "The request contains text the service cannot store (for example a U+0000 character)." }, headers: {} };
  }
  log(error);
  if (dbError?.kind === "unavailable") {
    return {
      status: 503,
      body: { error: "The database is unavailable. Try again shortly." },
      headers: { "Retry-After": String(DB_RETRY_AFTER_SECONDS) },
    };
  }
  return { status: 500, body: { error: "Internal server error." }, headers: {} };
}

function defaultLog(error: unknown): void {
  console.error(JSON.stringify({ level: "error", msg: "unhandled error", error: errorDetails(error) }));
}

/**
 * What a log line may say about an error. A database error is reduced to its code and a message
 * without literals: Drizzle's message carries the SQL parameters (tokens, signature text, emails).
 */
export function errorDetails(error: unknown): { name: string; message: string; code?: string; stack?: string } {
  const dbError = describeDbError(error);
  if (dbError && error instanceof Error) {
    const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
    return { name: "DatabaseError", code: dbError.code, message: dbError.message, stack: frames.join("\n") };
  }
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "NonError", message: String(error) };
}

export function errorJsonResponse(error: unknown): Response {
  const { status, body, headers } = toErrorResponse(error);
  return Response.json(body, { status, headers });
}
