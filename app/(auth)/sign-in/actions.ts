"use server";

import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { tooManyAttemptsMessage } from "@/lib/auth/auth-throttle-rules";
import { createSessionCookie } from "@/lib/sign-in/create-session-cookie";
import { safeReturnPath } from "@/lib/auth/safe-return-path";
import { signInWithPasswordThrottled } from "@/lib/sign-in/sign-in-with-password-throttled";
import { prepareDatabase } from "@/lib/boot";
import { publicAction } from "../../_lib/validated-action";

/** What the form shows after an attempt: the message and the email as typed (never the password). */
export type SignInState = { error?: string; email: string };

const InputSchema = z.object({
  email: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(1024),
  returnTo: z.string().max(4096).optional(),
});

/**
 * Signs in with email and password from `/sign-in` (a native POST, so it works before hydration
 * and without JavaScript): checks the password behind the throttle, sets next-auth's session
 * cookie and redirects to the (same-origin) return path.
 */
export async function signInAction(previous: SignInState, form: FormData): Promise<SignInState> {
  return signIn(previous, form);
}

const signIn = publicAction<SignInState>(async ({ fields, evidence }) => {
  const email = (fields.text("email") ?? "").slice(0, 320);
  const parsed = InputSchema.safeParse({ email: fields.text("email"), password: fields.text("password"), returnTo: fields.text("returnTo") });
  if (!parsed.success) return { error: "Enter your email address and password.", email };

  const { db } = await prepareDatabase();
  const result = await signInWithPasswordThrottled(db, {
    email: parsed.data.email,
    password: parsed.data.password,
    // The throttle's key: the evidence IP rule, "unknown" when no address can be told.
    clientIp: evidence.ipAddress ?? "unknown",
  });
  if (result.status === "refused") return { error: tooManyAttemptsMessage(result.retryAfterSeconds), email };
  if (result.status === "invalid") return { error: "The email or password is incorrect.", email };

  const cookie = await createSessionCookie({ user: result.user });
  (await cookies()).set(cookie.name, cookie.value, cookie.options);
  redirect(safeReturnPath(parsed.data.returnTo));
});
