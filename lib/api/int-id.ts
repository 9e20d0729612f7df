import { NotFound } from "@/lib/errors";

/** Organization, company and location ids are integers; any other path segment names nothing (404). */
export function intIdOrThrow(raw: string, what: string): number {
  const id = /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw NotFound(`${what} ${raw.slice(0, 40)} not found.`);
  return id;
}
