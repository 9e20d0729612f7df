"use server";

import { z } from "zod";
import { acceptInvite } from "@/lib/sign-in/accept-invite";
import { INVITE_LINK_MESSAGES, INVITE_PASSWORD_MAX_LENGTH } from "@/lib/auth/invite-token-format";
import { prepareDatabase } from "@/lib/boot";
import { AppError } from "@/lib/errors";

export type AcceptInviteInput = { token: string; password: string; confirmPassword: string };

export type AcceptInviteResult =
  | { status: "accepted"; email: string }
  /** The password was refused; the form stays. */
  | { status: "invalid-password"; field: "password" | "confirmPassword"; message: string }
  /** The link cannot be used (unknown, used, superseded, expired); the form goes. */
  | { status: "invalid-link"; message: string }
  | { status: "failed"; message: string };

const InputSchema = z.object({
  token: z.string().max(200),
  password: z.string().max(INVITE_PASSWORD_MAX_LENGTH * 4),
  confirmPassword: z.string().max(INVITE_PASSWORD_MAX_LENGTH * 4),
});

/** Sets the invited user's password from `/accept-invite` (domain rules in `lib/sign-in/accept-invite.ts`). */
export async function acceptInviteAction(input: AcceptInviteInput): Promise<AcceptInviteResult> {
  const parsed = InputSchema.safeParse(input);
  if (!parsed.success) {
    return parsed.error.issues.some((issue) => issue.path[0] === "token")
      ? { status: "invalid-link", message: INVITE_LINK_MESSAGES.invalid }
      : { status: "invalid-password", field: "password", message: `Choose a password of at most ${INVITE_PASSWORD_MAX_LENGTH} characters.` };
  }
  const { token, password, confirmPassword } = parsed.data;
  if (password !== confirmPassword) {
    return { status: "invalid-password", field: "confirmPassword", message: "The two passwords do not match." };
  }
  try {
    const { db } = await prepareDatabase();
    const accepted = await acceptInvite(db, { token, password });
    return { status: "accepted", email: accepted.email };
  } catch (error) {
    if (error instanceof AppError) {
      return error.code === "bad_request"
        ? { status: "invalid-password", field: "password", message: error.message }
        : { status: "invalid-link", message: error.message };
    }
    throw error;
  }
}
