import { z } from "@hono/zod-openapi";
import { SafeString } from "./common";

/** `?limit=&cursor=` for every list (keyset pagination, docs/architecture.md). */
export const PaginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).openapi({ example: 25 }),
  cursor: SafeString.max(512).optional().openapi({ description: "The `nextCursor` of the previous page" }),
});

export const pageSchema = <T extends z.ZodType>(item: T, name: string) =>
  z.object({ data: z.array(item), nextCursor: z.string().nullable() }).openapi(name);
