/**
 * The one error type and the one code → status table (STYLE §3). Domain code throws these;
 * `toErrorResponse` is the only place that turns an error into `{ error }` and a status.
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
  unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "AppError";
  }

  get status(): (typeof ERROR_STATUS)[ErrorCode] {
    return ERROR_STATUS[this.code];
  }
}

export const BadRequest = (message: string) => new AppError("bad_request", message);
export const Unauthorized = (message: string) => new AppError("unauthorized", message);
export const Forbidden = (message: string) => new AppError("forbidden", message);
export const NotFound = (message: string) => new AppError("not_found", message);
export const Conflict = (message: string) => new AppError("conflict", message);
export const Unavailable = (message: string) => new AppError("unavailable", message);
/** The one message for an unparsable JSON body, in `/v1` and in the Next route handlers. */
export const INVALID_JSON_MESSAGE = "Request body is not valid JSON.";
export const InvalidJson = () => BadRequest(INVALID_JSON_MESSAGE);
export const MethodNotAllowed = (allowed: string[]) =>
  new AppError("method_not_allowed", `Method not allowed. Allowed: ${allowed.join(", ")}.`, { Allow: allowed.join(", ") });

/** The exact 401 texts of spec §7. */
export const AUTH_ERRORS = {
  missing: "Missing Authorization Bearer token.",
  empty: "Empty bearer token.",
  invalid: "Invalid or expired token.",
} as const;

export type ErrorResponse = { status: number; body: { error: string }; headers: Record<string, string> };

export function toErrorResponse(error: unknown, log: (error: unknown) => void = defaultLog): ErrorResponse {
  if (error instanceof AppError) {
    return { status: error.status, body: { error: error.message }, headers: error.headers };
  }
  log(error);
  return { status: 500, body: { error: "Internal server error." }, headers: {} };
}

function defaultLog(error: unknown): void {
  console.error(JSON.stringify({ level: "error", msg: "unhandled error", error: errorDetails(error) }));
}

export function errorDetails(error: unknown): { name: string; message: string; stack?: string } {
  if (error instanceof Error) return { name: error.name, message: error.message, stack: error.stack };
  return { name: "NonError", message: String(error) };
}

export function errorJsonResponse(error: unknown): Response {
  const { status, body, headers } = toErrorResponse(error);
  return Response.json(body, { status, headers });
}
