import { AppError } from "@/lib/errors";

/**
 * One keyset page of a domain list for a `?cursor=` from the URL. A cursor that no longer decodes
 * (edited, or from another list) falls back to the first page rather than an error page.
 */
export async function listFromCursor<T>(list: (cursor: string | undefined) => Promise<T>, cursor: string | undefined): Promise<T> {
  if (!cursor) return list(undefined);
  try {
    return await list(cursor);
  } catch (error) {
    if (error instanceof AppError && error.code === "bad_request") return list(undefined);
    throw error;
  }
}

/** `?cursor=` of a page's search params, when it is one plain string of sane length. */
export function cursorParam(value: string | string[] | undefined): string | undefined {
  return typeof value === "string" && value.length > 0 && value.length <= 512 ? value : undefined;
}
