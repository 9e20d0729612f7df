import type { Db } from "@/db/client";
import { passwordSignInRules } from "@/lib/auth/auth-throttle-rules";
import { checkAuthThrottle } from "@/lib/auth/check-auth-throttle";
import { clearAuthFailures } from "@/lib/auth/clear-auth-failures";
import { recordAuthFailure } from "@/lib/auth/record-auth-failure";
import { signInWithPassword, type SignedInUser } from "./sign-in-with-password";

export type SignInWithPasswordThrottledOptions = {
  email: string;
  password: string;
  clientIp: string;
  now?: Date;
  /** How the added delay is waited for (tests record it instead). */
  wait?: (ms: number) => Promise<void>;
};

export type ThrottledSignInResult =
  | { status: "signed-in"; user: SignedInUser }
  | { status: "invalid" }
  | { status: "refused"; retryAfterSeconds: number };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * `signInWithPassword` behind the failed-attempt throttle (per account and per client): a locked
 * account or client is refused before the password is even checked; after a few failures each
 * attempt is slowed; a wrong password counts against both; a success clears the account's count.
 * Whether an account exists does not change any of this.
 */
export async function signInWithPasswordThrottled(db: Db, options: SignInWithPasswordThrottledOptions): Promise<ThrottledSignInResult> {
  const rules = passwordSignInRules({ email: options.email, clientIp: options.clientIp });
  const state = await checkAuthThrottle(db, { rules, now: options.now });
  if (state.refused) return { status: "refused", retryAfterSeconds: state.retryAfterSeconds };
  if (state.delayMs > 0) await (options.wait ?? sleep)(state.delayMs);

  const user = await signInWithPassword(db, { email: options.email, password: options.password });
  if (user) {
    await clearAuthFailures(db, { keys: [rules[0]!.key] });
    return { status: "signed-in", user };
  }
  const retryAfterSeconds = await recordAuthFailure(db, { rules, now: options.now });
  return retryAfterSeconds > 0 ? { status: "refused", retryAfterSeconds } : { status: "invalid" };
}
