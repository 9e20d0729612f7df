import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageSigners, signerAuthChallenges } from "@/db/schema";
import { recordAuditEntry } from "@/lib/audit/record-audit-entry";
import { tooManyAttemptsMessage } from "@/lib/auth/auth-throttle-rules";
import { claimAuthAttempt } from "@/lib/auth/claim-auth-attempt";
import { clearAuthFailures } from "@/lib/auth/clear-auth-failures";
import { verifyPassword } from "@/lib/auth/passwords";
import type { Principal } from "@/lib/auth/principal";
import { BadRequest, Forbidden, TooManyRequests } from "@/lib/errors";
import type { SignerSessionContext } from "./get-signer-session";
import { effectiveAuthMethod } from "./effective-auth-method";
import { markSignerAuthPassed } from "./mark-signer-auth-passed";
import { ACCOUNT_SATISFIES, signerProofRules } from "./rules";
import { codeHmac, normalizeCode, sameDigest } from "@/lib/security/secrets";
import { emitEvent } from "@/lib/webhooks/emit-event";

type Evidence = { ipAddress?: string | null; userAgent?: string | null; now?: Date };

export const WRONG_CODE_MESSAGE = "That code is not right. Check it and try again.";

/**
 * Checks what the signer typed on the proof page against the session's method: the latest unexpired
 * code (`email_code`, `sms_code`, compared in constant time) or the access code the sender set.
 * Attempts count per signer, before anything is compared (`claimAuthAttempt`: one atomic statement,
 * so parallel guesses cannot all be compared before the count catches up): at most five are compared
 * in a window; a fifth wrong one locks the proof for 15 minutes (429 until then, whatever is typed);
 * a right one clears the count. Each compared wrong attempt is audited with the method, never the code.
 */
export async function verifySignerProof(db: Db, options: { context: SignerSessionContext; code: string } & Evidence): Promise<void> {
  const now = options.now ?? new Date();
  const { session, signing, signer } = options.context;
  const method = effectiveAuthMethod(signing, signer);
  if (method !== "email_code" && method !== "sms_code" && method !== "access_code") throw BadRequest("This package does not ask for a code.");
  const code = method === "access_code" ? options.code.trim() : normalizeCode(options.code);
  if (code.length === 0 || code.length > 100) throw BadRequest("Enter the code.");
  const rules = signerProofRules(signer.id);
  const attempt = await claimAuthAttempt(db, { rules, now });
  if (attempt.refused) throw TooManyRequests(tooManyAttemptsMessage(attempt.retryAfterSeconds), attempt.retryAfterSeconds);

  let passed = false;
  let challengeId: string | null = null;
  if (method === "access_code") {
    passed = signer.accessCodeHash ? await verifyPassword(code, signer.accessCodeHash) : false;
  } else {
    const [challenge] = await db
      .select()
      .from(signerAuthChallenges)
      .where(
        and(
          eq(signerAuthChallenges.sessionId, session.id),
          eq(signerAuthChallenges.method, method),
          isNull(signerAuthChallenges.consumedAt),
          gt(signerAuthChallenges.expiresAt, now),
        ),
      )
      .orderBy(desc(signerAuthChallenges.createdAt))
      .limit(1);
    if (challenge) {
      challengeId = challenge.id;
      passed = /^\d{6}$/.test(code) && sameDigest(codeHmac(challenge.id, code), challenge.codeHmac);
    }
  }

  await db.transaction(async (tx) => {
    if (passed) {
      if (challengeId) await tx.update(signerAuthChallenges).set({ consumedAt: now }).where(eq(signerAuthChallenges.id, challengeId));
      await clearAuthFailures(tx, { keys: rules.map((r) => r.key) });
      await markSignerAuthPassed(tx, { session, signing, signer, method, ipAddress: options.ipAddress, userAgent: options.userAgent, now });
      return;
    }
    if (challengeId) {
      await tx
        .update(signerAuthChallenges)
        .set({ attempts: sql`${signerAuthChallenges.attempts} + 1` })
        .where(eq(signerAuthChallenges.id, challengeId));
    }
    await tx
      .update(packageSigners)
      .set({ authFailures: sql`${packageSigners.authFailures} + 1` })
      .where(eq(packageSigners.id, signer.id));
    await recordAuditEntry(tx, {
      organizationId: signing.organizationId,
      packageId: signing.id,
      actorUserId: null,
      action: "signer.auth_failed",
      entityType: "package_signer",
      entityId: signer.id,
      ipAddress: options.ipAddress,
      after: { method, userAgent: options.userAgent?.slice(0, 500) ?? null, reason: challengeId || method === "access_code" ? "wrong_code" : "no_code" },
    });
    // This wrong code started a lock: the lender's systems hear of it (ids only, never the code).
    if (!attempt.refused && attempt.retryAfterSecondsIfWrong > 0) {
      await emitEvent(tx, "signer.locked_out", { packageId: signing.id, organizationId: signing.organizationId, signerId: signer.id });
    }
  });
  if (passed) return;
  const retryAfterSeconds = attempt.retryAfterSecondsIfWrong;
  if (retryAfterSeconds > 0) throw TooManyRequests(tooManyAttemptsMessage(retryAfterSeconds), retryAfterSeconds);
  throw BadRequest(challengeId || method === "access_code" ? WRONG_CODE_MESSAGE : "That code has expired. Ask for a new one.");
}

/**
 * A signer signed in with an account whose email is the signer's passes `link`, `email_code` and
 * `account`; `access_code` and `sms_code` are always asked.
 */
export async function passSignerProofWithAccount(
  db: Db,
  options: { context: SignerSessionContext; principal: Principal } & Evidence,
): Promise<void> {
  const { signing, signer, session } = options.context;
  const method = effectiveAuthMethod(signing, signer);
  if (!ACCOUNT_SATISFIES.includes(method)) throw Forbidden("This package asks for its own code even when you are signed in.");
  if (options.principal.user.email.trim().toLowerCase() !== signer.email.trim().toLowerCase()) {
    throw Forbidden("You are signed in with another email address than the one this package was sent to.");
  }
  await db.transaction((tx) =>
    markSignerAuthPassed(tx, { session, signing, signer, method: "account", ipAddress: options.ipAddress, userAgent: options.userAgent, now: options.now ?? new Date() }),
  );
}
