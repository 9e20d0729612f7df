import { createHash } from "node:crypto";
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { auditLog, type AuditEntry } from "@/db/schema";
import { emitAuditEvent } from "@/lib/webhooks/emit-audit-event";
import type { AuditAction } from "./audit-actions";

export type AuditInput = {
  organizationId: number | null;
  packageId?: string | null;
  actorUserId: string | null;
  action: AuditAction;
  entityType: string;
  entityId: string;
  ipAddress?: string | null;
  before?: unknown;
  after?: unknown;
};

/** Deterministic JSON (sorted keys) so the same entry always hashes the same way. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value ?? null);
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(",")}}`;
}

/** The hash of an entry as stored (a row read back may carry an action recorded before the list was typed). */
export function hashAuditEntry(entry: Omit<AuditInput, "ipAddress" | "action"> & { action: string; ipAddress: string | null; createdAt: Date; prevHash: string | null }): string {
  return createHash("sha256")
    .update(
      canonicalJson({
        prevHash: entry.prevHash,
        organizationId: entry.organizationId,
        packageId: entry.packageId ?? null,
        actorUserId: entry.actorUserId,
        action: entry.action,
        entityType: entry.entityType,
        entityId: entry.entityId,
        ipAddress: entry.ipAddress,
        before: entry.before ?? null,
        after: entry.after ?? null,
        createdAt: entry.createdAt.toISOString(),
      }),
    )
    .digest("hex");
}

/**
 * Appends an audit entry. Call it inside the transaction that makes the change. Entries for one
 * package form a hash chain; a transaction-scoped advisory lock keyed by the package serializes
 * appenders so two concurrent changes cannot both link to the same predecessor.
 */
export async function recordAuditEntry(db: Db, input: AuditInput): Promise<AuditEntry> {
  let prevHash: string | null = null;
  if (input.packageId) {
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`audit:${input.packageId}`}))`);
    const [last] = await db
      .select({ hash: auditLog.hash })
      .from(auditLog)
      .where(eq(auditLog.packageId, input.packageId))
      .orderBy(desc(auditLog.id))
      .limit(1);
    prevHash = last?.hash ?? null;
  }
  const createdAt = new Date();
  const ipAddress = input.ipAddress ?? null;
  const hash = hashAuditEntry({ ...input, ipAddress, createdAt, prevHash });
  const [row] = await db
    .insert(auditLog)
    .values({
      organizationId: input.organizationId,
      packageId: input.packageId ?? null,
      actorUserId: input.actorUserId,
      action: input.action,
      entityType: input.entityType,
      entityId: input.entityId,
      ipAddress,
      before: input.before ?? null,
      after: input.after ?? null,
      prevHash,
      hash,
      createdAt,
    })
    .returning();
  await emitAuditEvent(db, input);
  return row!;
}
