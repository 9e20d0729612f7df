import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/**
 * A page's load through a domain `get…OrThrow`: its NotFound (unknown id, or outside the caller's
 * scope, which the domain does not distinguish) becomes the not-found page instead of a 500.
 */
export async function loadOr404<T>(load: Promise<T>): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

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

/** A load that may fall outside the caller's scope (a parent of what they manage): its NotFound becomes null. */
export async function loadOrNull<T>(load: Promise<T>): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}
