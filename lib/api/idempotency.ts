import { createHash } from "node:crypto";
import { and, eq, lt } from "drizzle-orm";
import type { MiddlewareHandler } from "hono";
import { idempotencyKeys } from "@/db/schema";
import { AppError, BadRequest, Conflict } from "@/lib/errors";
import type { ApiEnv } from "./context";

export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * `Idempotency-Key` on a /v1 create (POST), as Stripe does it: the first request with a key runs and
 * its answer is kept for 24 hours; the same key with the same method, path and body answers that
 * answer again (`Idempotent-Replayed: true`) without running anything; the same key with another
 * request is a 422; while the first is still running, another with its key is a 409. The row is
 * claimed by its primary key before the operation runs, so concurrent duplicates create one record.
 * A server error (5xx) keeps nothing: the key can be retried.
 */
export const idempotency: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const key = c.req.header("idempotency-key");
  if (key === undefined) return next();
  if (!KEY.test(key)) throw BadRequest("Idempotency-Key must be 1 to 255 printable ASCII characters without spaces.");
  const db = c.get("db");
  const userId = c.get("principal").user.id;
  const body = new Uint8Array(await c.req.arrayBuffer());
  const requestSha256 = createHash("sha256").update(`${c.req.method} ${c.req.path}\n`).update(body).digest("hex");
  const mine = and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key));

  await db.delete(idempotencyKeys).where(and(mine, lt(idempotencyKeys.createdAt, new Date(Date.now() - IDEMPOTENCY_KEY_TTL_MS))));
  const [claimed] = await db
    .insert(idempotencyKeys)
    .values({ userId, key, method: c.req.method, path: c.req.path, requestSha256 })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed) {
    const [earlier] = await db.select().from(idempotencyKeys).where(mine).limit(1);
    if (!earlier) throw Conflict("A request with this Idempotency-Key was just answered; retry it.");
    if (earlier.requestSha256 !== requestSha256) {
      throw new AppError("unprocessable", "This Idempotency-Key was used with another request (method, path or body); use a new key.");
    }
    if (earlier.responseStatus === null) throw Conflict("A request with this Idempotency-Key is still in progress; retry it shortly.");
    const headers: Record<string, string> = { "Idempotent-Replayed": "true" };
    if (earlier.responseBody) headers["Content-Type"] = "application/json";
    return new Response(earlier.responseBody || null, { status: earlier.responseStatus, headers });
  }

  try {
    await next();
  } catch (error) {
    await db.delete(idempotencyKeys).where(mine);
    throw error;
  }
  // Errors reach here as answers (Hono's error handler ran): a 4xx is kept (the same request fails the
  // same way), a 5xx is forgotten so the key can be retried.
  if (c.res.status >= 500) {
    await db.delete(idempotencyKeys).where(mine);
    return;
  }
  const text = await c.res.clone().text();
  await db.update(idempotencyKeys).set({ responseStatus: c.res.status, responseBody: text }).where(mine);
};
