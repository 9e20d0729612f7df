import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inPersonSignings, packageSigners } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { requireCapability, type Principal } from "@/lib/auth/principal";
import { Conflict, NotFound } from "@/lib/errors";
import { isUuid } from "@/lib/ids";
import { markSignerAuthPassed } from "@/lib/signer-access/mark-signer-auth-passed";
import { openLinklessSignerSession } from "@/lib/signer-access/open-linkless-session";
import { getSigningOrThrow } from "@/lib/packages/get-signing-or-throw";
import { OPEN_SIGNING_STATUSES } from "@/lib/packages/state-machine";
import type { Identification } from "./identification";

export type StartedInPersonSigning = { packageId: string; sessionValue: string; expiresAt: Date };

/**
 * A manager (the host) starts signing in person for one signer of a sent package, on the device in
 * front of them: the identification they checked is recorded (kind, issuer, last four characters),
 * and a signer session for that signer alone is opened with its proof passed (`in_person`), as a
 * link session would be, but without an email. Audited as `signer.in_person_started` (the host is
 * the actor) and `signer.auth_passed`. The caller puts the returned value in the signer's cookie and
 * ends the host's own session, so only the signer's package is reachable until the device comes back.
 * 404 outside the host's scope; 409 when the package is not open or the signer has already finished.
 */
export async function startInPersonSigning(
  db: Db,
  options: { principal: Principal; packageId: string; signerId: string; identification: Identification; ipAddress?: string | null; userAgent?: string | null; now?: Date },
): Promise<StartedInPersonSigning> {
  requireCapability(options.principal, "signings:write", "You do not have permission to host in-person signing.");
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
    if (!(OPEN_SIGNING_STATUSES as readonly string[]).includes(signing.status)) {
      throw Conflict(`This package is ${signing.status.replace("_", " ")}: in-person signing is for a sent package.`);
    }
    const [signer] = isUuid(options.signerId)
      ? await tx.select().from(packageSigners).where(and(eq(packageSigners.id, options.signerId), eq(packageSigners.packageId, signing.id)))
      : [];
    if (!signer) throw NotFound("That signer is not on this package.");
    if (signer.status === "signed" || signer.status === "declined") throw Conflict(`${signer.name} has already ${signer.status} this package.`);

    const { session, sessionValue, expiresAt } = await openLinklessSignerSession(tx, {
      packageId: signing.id,
      signerId: signer.id,
      ipAddress: options.ipAddress,
      userAgent: options.userAgent,
      now,
    });
    const { user } = options.principal;
    const { identification } = options;
    await tx.insert(inPersonSignings).values({
      packageId: signing.id,
      signerId: signer.id,
      sessionId: session.id,
      hostUserId: user.id,
      hostName: user.name,
      hostEmail: user.email,
      ...identification,
      startedAt: now,
    });
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: user.id,
      action: "signer.in_person_started",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { host: { name: user.name, email: user.email }, identification },
    });
    await markSignerAuthPassed(tx, { session, signing, signer, method: "in_person", ipAddress: options.ipAddress, userAgent: options.userAgent, now });
    return { packageId: signing.id, sessionValue, expiresAt };
  });
}

export type InPersonCandidates = {
  packageId: string;
  title: string;
  open: boolean;
  signers: { id: string; name: string; email: string; status: string; canStart: boolean }[];
};

/** The package's signers as the host's form lists them: who can still sign in person (not signed, not declined). */
export async function getInPersonCandidates(db: Db, options: { principal: Principal; packageId: string }): Promise<InPersonCandidates> {
  requireCapability(options.principal, "signings:write", "You do not have permission to host in-person signing.");
  const signing = await getSigningOrThrow(db, { principal: options.principal, packageId: options.packageId, capability: "signings:write" });
  const open = (OPEN_SIGNING_STATUSES as readonly string[]).includes(signing.status);
  const signers = await db
    .select({ id: packageSigners.id, name: packageSigners.name, email: packageSigners.email, status: packageSigners.status, routingOrder: packageSigners.routingOrder })
    .from(packageSigners)
    .where(eq(packageSigners.packageId, signing.id))
    .orderBy(packageSigners.routingOrder, packageSigners.createdAt);
  return {
    packageId: signing.id,
    title: signing.title,
    open,
    signers: signers.map((s) => ({ id: s.id, name: s.name, email: s.email, status: s.status, canStart: open && s.status !== "signed" && s.status !== "declined" })),
  };
}
