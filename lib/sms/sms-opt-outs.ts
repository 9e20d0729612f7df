import { and, eq, inArray, isNotNull } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signingPackages, smsMessages, smsOptOuts } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { OPEN_SIGNING_STATUSES } from "@/lib/packages/state-machine";

/** The replies that stop texts (the carriers' and Twilio's standard opt-out keywords). */
export const STOP_KEYWORDS = ["STOP", "STOPALL", "UNSUBSCRIBE", "CANCEL", "END", "QUIT"] as const;
/** The replies that start them again. */
export const START_KEYWORDS = ["START", "UNSTOP"] as const;

/** A reply as a keyword: the whole message, trimmed, upper-cased, without trailing punctuation. */
export function smsKeyword(body: string): string {
  return body
    .trim()
    .replace(/[.!?\s]+$/, "")
    .toUpperCase();
}

export function isStopKeyword(keyword: string): boolean {
  return (STOP_KEYWORDS as readonly string[]).includes(keyword);
}

export function isStartKeyword(keyword: string): boolean {
  return (START_KEYWORDS as readonly string[]).includes(keyword);
}

/** Whether the number stopped texts from the organization. */
export async function isSmsOptedOut(db: Db, options: { organizationId: number; phone: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: smsOptOuts.id })
    .from(smsOptOuts)
    .where(and(eq(smsOptOuts.organizationId, options.organizationId), eq(smsOptOuts.phone, options.phone)))
    .limit(1);
  return Boolean(row);
}

/**
 * The organizations a number's reply is about: our sending number is shared, so a STOP to it
 * concerns every organization that texted the number or holds a signer's consent to text it.
 */
export async function organizationsTextingNumber(db: Db, phone: string): Promise<number[]> {
  const [texted, consented] = await Promise.all([
    db.selectDistinct({ id: smsMessages.organizationId }).from(smsMessages).where(eq(smsMessages.to, phone)),
    db
      .selectDistinct({ id: signingPackages.organizationId })
      .from(packageSigners)
      .innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId))
      .where(and(eq(packageSigners.phone, phone), isNotNull(packageSigners.smsConsentAt))),
  ]);
  return [...new Set([...texted, ...consented].map((r) => r.id))].sort((a, b) => a - b);
}

/**
 * Records a STOP (or START) from `phone` for `organizationIds`, inside the caller's transaction: a
 * STOP upserts the opt-out and marks the number's queued texts skipped (nothing more goes out, even
 * a text already waiting for its job); a START deletes the opt-out. Each signer of an open package
 * with that number gets a `signer.texts_stopped` / `signer.texts_resumed` audit entry.
 */
export async function recordSmsReply(
  db: Db,
  options: { phone: string; organizationIds: number[]; action: "stop" | "start"; keyword: string; at: Date },
): Promise<void> {
  const { phone, organizationIds, at } = options;
  if (organizationIds.length === 0) return;
  if (options.action === "stop") {
    for (const organizationId of organizationIds) {
      await db
        .insert(smsOptOuts)
        .values({ organizationId, phone, keyword: options.keyword, stoppedAt: at })
        .onConflictDoNothing({ target: [smsOptOuts.organizationId, smsOptOuts.phone] });
    }
    await db
      .update(smsMessages)
      .set({ status: "skipped", skipReason: "opted_out", updatedAt: at })
      .where(and(eq(smsMessages.to, phone), eq(smsMessages.status, "queued"), inArray(smsMessages.organizationId, organizationIds)));
  } else {
    await db.delete(smsOptOuts).where(and(eq(smsOptOuts.phone, phone), inArray(smsOptOuts.organizationId, organizationIds)));
  }
  const signers = await db
    .select({ id: packageSigners.id, packageId: packageSigners.packageId, organizationId: signingPackages.organizationId })
    .from(packageSigners)
    .innerJoin(signingPackages, eq(signingPackages.id, packageSigners.packageId))
    .where(
      and(
        eq(packageSigners.phone, phone),
        inArray(signingPackages.organizationId, organizationIds),
        inArray(signingPackages.status, [...OPEN_SIGNING_STATUSES]),
      ),
    );
  for (const signer of signers) {
    await recordAuditEntry(db, {
      organizationId: signer.organizationId,
      packageId: signer.packageId,
      actorUserId: null,
      action: options.action === "stop" ? "signer.texts_stopped" : "signer.texts_resumed",
      entityType: "package_signer",
      entityId: signer.id,
      after: { keyword: options.keyword },
    });
  }
}
