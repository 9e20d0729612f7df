import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";

/**
 * A page's load through a domain `get…OrThrow`: its NotFound (unknown id, or outside the caller's
 * scope, which the domain does not distinguish) becomes the not-found page instead of a 500. With
 * `forbiddenToo`, a Forbidden does as well (a page whose domain call tells "no right" apart from
 * "no such thing", where the page should not). Every other error propagates: a database outage is an
 * error page, never a 404.
 */
export async function loadOr404<T>(load: Promise<T>, options: { forbiddenToo?: boolean } = {}): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (isOutOfReach(error, options)) notFound();
    throw error;
  }
}

/**
 * A load that may fall outside the caller's scope (a parent of what they manage, a template they may
 * not read): its NotFound (with `forbiddenToo`, its Forbidden) becomes null; other errors propagate.
 */
export async function loadOrNull<T>(load: Promise<T>, options: { forbiddenToo?: boolean } = {}): Promise<T | null> {
  try {
    return await load;
  } catch (error) {
    if (isOutOfReach(error, options)) return null;
    throw error;
  }
}

function isOutOfReach(error: unknown, { forbiddenToo = false }: { forbiddenToo?: boolean }): boolean {
  return error instanceof AppError && (error.code === "not_found" || (forbiddenToo && error.code === "forbidden"));
}
