import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { inPersonSignings, packageSigners, type PackageSigner, type SigningPackage } from "@/db/schema";
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

/** Who hosts an in-person signing: an account, by its name and email at the time. */
export type InPersonHost = { userId: string | null; name: string; email: string };

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The package (locked) and the signer a host may start signing in person for, by the rules every way
 * in shares (the console's form, `/v1`'s in-person URL): `signings:write` on the package, another
 * organization's package or an unknown signer a 404; a package that is not sent or in progress, or a
 * signer who has signed or declined, a 409 with the reason.
 */
export async function hostableSigner(
  tx: Tx,
  options: { principal: Principal; packageId: string; signerId: string },
): Promise<{ signing: SigningPackage; signer: PackageSigner }> {
  requireCapability(options.principal, "signings:write", "You do not have permission to host in-person signing.");
  const signing = await getSigningOrThrow(tx, { principal: options.principal, packageId: options.packageId, capability: "signings:write", lock: true });
  if (!(OPEN_SIGNING_STATUSES as readonly string[]).includes(signing.status)) {
    throw Conflict(`This package is ${signing.status.replace("_", " ")}: in-person signing is for a sent package.`);
  }
  if (signing.expiresAt && signing.expiresAt <= new Date()) throw Conflict("This package has passed its expiry date: it can no longer be signed.");
  const [signer] = isUuid(options.signerId)
    ? await tx.select().from(packageSigners).where(and(eq(packageSigners.id, options.signerId), eq(packageSigners.packageId, signing.id)))
    : [];
  if (!signer) throw NotFound("That signer is not on this package.");
  if (signer.status === "signed" || signer.status === "declined") throw Conflict(`${signer.name} has already ${signer.status} this package.`);
  return { signing, signer };
}

/**
 * Opens the signer's in-person session, as every way in does once its checks have passed: a signer
 * session for that signer alone with its proof passed (`in_person`), the `in_person_signings` row
 * (host, identification), and the audit entries `signer.in_person_started` (the host is the actor;
 * `via: "api"` when an integrator's desk app asked for the URL) and `signer.auth_passed`.
 */
export async function openHostedSession(
  tx: Tx,
  options: {
    signing: SigningPackage;
    signer: PackageSigner;
    host: InPersonHost;
    identification: Identification;
    via?: "api";
    ipAddress?: string | null;
    userAgent?: string | null;
    now: Date;
  },
): Promise<StartedInPersonSigning & { sessionId: string }> {
  const { signing, signer, host, identification, now } = options;
  const { session, sessionValue, expiresAt } = await openLinklessSignerSession(tx, {
    packageId: signing.id,
    signerId: signer.id,
    ipAddress: options.ipAddress,
    userAgent: options.userAgent,
    now,
  });
  await tx.insert(inPersonSignings).values({
    packageId: signing.id,
    signerId: signer.id,
    sessionId: session.id,
    hostUserId: host.userId,
    hostName: host.name,
    hostEmail: host.email,
    ...identification,
    startedAt: now,
  });
  await recordAuditEntry(tx, {
    organizationId: signing.organizationId,
    packageId: signing.id,
    actorUserId: host.userId,
    action: "signer.in_person_started",
    entityType: "package_signer",
    entityId: signer.id,
    ipAddress: options.ipAddress,
    after: { host: { name: host.name, email: host.email }, identification, ...(options.via ? { via: options.via } : {}) },
  });
  await markSignerAuthPassed(tx, { session, signing, signer, method: "in_person", ipAddress: options.ipAddress, userAgent: options.userAgent, now });
  return { packageId: signing.id, sessionValue, expiresAt, sessionId: session.id };
}

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
    const { signing, signer } = await hostableSigner(tx, options);
    const { user } = options.principal;
    const { packageId, sessionValue, expiresAt } = await openHostedSession(tx, {
      signing,
      signer,
      host: { userId: user.id, name: user.name, email: user.email },
      identification: options.identification,
      ipAddress: options.ipAddress,
      userAgent: options.userAgent,
      now,
    });
    return { packageId, sessionValue, expiresAt };
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
