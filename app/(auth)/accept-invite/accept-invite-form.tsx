"use client";

import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useRef, useState, type FormEvent } from "react";
import { SubmitButton } from "@/components/ui/button";
import { InputField } from "@/components/ui/field";
import { Input, Label } from "@/components/ui/input";
import { linkClass } from "@/components/ui/classes";
import { acceptInviteAction } from "./actions";
import { formatDateTime } from "@/lib/format";

type Props = { token: string; email: string; organizationName: string; expiresAt: string; minLength: number };

type Field = "password" | "confirmPassword";


const alertClass = "rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900";

export function AcceptInviteForm({ token, email, organizationName, expiresAt, minLength }: Props) {
  const [password, setPassword] = useState("");
  const [confirmPassword, setConfirmPassword] = useState("");
  const [error, setError] = useState<{ field?: Field; message: string }>();
  const [linkError, setLinkError] = useState<string>();
  // Set once the password is saved but signing in afterwards did not work: the user signs in by hand.
  const [accepted, setAccepted] = useState(false);
  const [pending, setPending] = useState(false);
  const router = useRouter();
  const passwordRef = useRef<HTMLInputElement>(null);
  const confirmRef = useRef<HTMLInputElement>(null);

  function fail(field: Field | undefined, message: string) {
    setError({ field, message });
    (field === "confirmPassword" ? confirmRef : passwordRef).current?.focus();
  }

  async function submit() {
    if ([...password].length < minLength) {
      return fail("password", `Choose a password of at least ${minLength} characters.`);
    }
    if (password !== confirmPassword) return fail("confirmPassword", "The two passwords do not match.");
    setPending(true);
    setError(undefined);
    try {
      const result = await acceptInviteAction({ token, password, confirmPassword });
      if (result.status === "invalid-password") {
        setPending(false);
        return fail(result.field, result.message);
      }
      if (result.status !== "accepted") {
        setPending(false);
        return setLinkError(result.message);
      }
      const signedIn = await signIn("credentials", { email: result.email, password, redirect: false }).catch(() => undefined);
      if (signedIn?.ok && !signedIn.error) {
        // Replace: Back must not return to a link that is used up. The signed-in layout is not
        // mounted yet, so it renders with the new session.
        router.replace("/");
        return;
      }
      setAccepted(true);
    } catch {
      fail(undefined, "Your password could not be saved: the server could not be reached. Please try again.");
    }
    setPending(false);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit();
  }

  const expires = formatDateTime(expiresAt, "long");

  return (
    <section aria-labelledby="accept-invite-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
      <h1 id="accept-invite-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
        Accept your invitation
      </h1>
      <dl className="mt-4 space-y-2 text-sm">
        <div>
          <dt className="font-medium text-slate-700">Organization</dt>
          <dd className="break-words text-slate-900">{organizationName}</dd>
        </div>
        <div>
          <dt className="font-medium text-slate-700">Email address</dt>
          <dd className="break-all text-slate-900">{email}</dd>
        </div>
      </dl>

      {linkError ? (
        <p role="alert" className={`mt-6 ${alertClass}`}>
          {linkError}
        </p>
      ) : accepted ? (
        <div role="status" className="mt-6 space-y-3 rounded-md bg-emerald-50 px-3 py-3 text-sm text-emerald-950">
          <p>Your password is set.</p>
          <p>
            <a href="/sign-in" className={linkClass}>
              Sign in
            </a>{" "}
            with <span className="break-all">{email}</span> and your new password.
          </p>
        </div>
      ) : (
        <>
          <p className="mt-4 text-sm text-slate-700">
            Choose a password to sign in with. This link works once, until {expires}.
          </p>

          <div role="alert" aria-live="assertive" id="accept-invite-error" className={`empty:hidden mt-4 ${alertClass}`}>
            {error?.message}
          </div>

          <form onSubmit={onSubmit} noValidate className="mt-6 space-y-4">
            {/* Lets password managers store the new password under the right account. */}
            <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
            <div className="space-y-1">
              <Label htmlFor="new-password">New password</Label>
              <Input
                ref={passwordRef}
                id="new-password"
                name="password"
                type="password"
                autoComplete="new-password"
                required
                minLength={minLength}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-invalid={error?.field === "password" ? true : undefined}
                aria-describedby={error?.field === "password" ? "new-password-hint accept-invite-error" : "new-password-hint"}
              />
              <p id="new-password-hint" className="text-sm text-slate-700">
                At least {minLength} characters. A few unrelated words make a good one.
              </p>
            </div>
            <InputField
              ref={confirmRef}
              id="confirm-password"
              label="Repeat the password"
              name="confirmPassword"
              type="password"
              autoComplete="new-password"
              required
              value={confirmPassword}
              onChange={(e) => setConfirmPassword(e.target.value)}
              aria-invalid={error?.field === "confirmPassword" ? true : undefined}
              aria-describedby={error?.field === "confirmPassword" ? "accept-invite-error" : undefined}
            />
            <SubmitButton size="lg" className="w-full" pending={pending} pendingLabel="Saving…">
              Set password and sign in
            </SubmitButton>
          </form>
        </>
      )}
    </section>
  );
}
