import type { z } from "zod";
import { BadRequest, InvalidJson } from "@/lib/errors";

export type ParseJsonBodyOptions<S extends z.ZodType> = {
  schema: S;
  /** The 400 message when the JSON does not match; by default the schema's first issue. */
  invalidBody?: string;
};

/** A JSON request body checked against its schema: 400 with `/v1`'s message when it is not JSON at all. */
export function parseJsonBody<S extends z.ZodType>(rawBody: Uint8Array, options: ParseJsonBodyOptions<S>): z.output<S> {
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(rawBody).toString("utf8"));
  } catch {
    throw InvalidJson();
  }
  const parsed = options.schema.safeParse(json);
  if (!parsed.success) throw BadRequest(options.invalidBody ?? parsed.error.issues[0]?.message ?? "Invalid request body.");
  return parsed.data;
}
