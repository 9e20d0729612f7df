"use client";

import { useActionState } from "react";
import { SubmitButton } from "@/components/ui/button";
import { InputField } from "@/components/ui/field";
import type { DemoAccount } from "@/lib/seed/list-demo-accounts";
import { signInAction, type SignInState } from "./actions";

type Props = { returnTo: string; initialError?: string; signedOut: boolean; demoAccounts: DemoAccount[] };

const ROLE_LABELS: Record<string, string> = { admin: "Admin", org_admin: "Org admin", manager: "Manager", signer: "Signer" };

/**
 * The credentials form posts to a server action: a native POST before hydration or without
 * JavaScript (never a GET carrying the password), `useActionState` once hydrated. Each demo
 * account is a small form of its own posting to the same action.
 */
export function SignInForm({ returnTo, initialError, signedOut, demoAccounts }: Props) {
  const [state, formAction, pending] = useActionState<SignInState, FormData>(signInAction, { error: initialError, email: "" });
  const error = state.error;

  return (
    <div className="space-y-6">
      <section aria-labelledby="sign-in-heading" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <h1 id="sign-in-heading" className="text-2xl font-semibold tracking-tight text-slate-900">
          Sign in
        </h1>
        <p className="mt-1 text-sm text-slate-700">Use your email and password to review and sign your documents.</p>

        {signedOut && !error ? (
          <p role="status" className="mt-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-900">
            You have been signed out.
          </p>
        ) : null}

        <div role="alert" aria-live="assertive" className="empty:hidden mt-4 rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900" id="sign-in-error">
          {error}
        </div>

        <form action={formAction} className="mt-6 space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
          <input type="hidden" name="returnTo" value={returnTo} />
          <InputField
            id="email"
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            key={`email-${state.email}`}
            defaultValue={state.email}
            aria-invalid={error ? true : undefined}
          />
          <InputField
            id="password"
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            aria-invalid={error ? true : undefined}
          />
          <SubmitButton size="lg" className="w-full" pending={pending} pendingLabel="Signing in…">
            Sign in
          </SubmitButton>
        </form>
      </section>

      {demoAccounts.length > 0 ? (
        <section aria-labelledby="demo-heading" className="rounded-xl border border-amber-200 bg-amber-50 p-6">
          <h2 id="demo-heading" className="text-base font-semibold text-amber-950">
            Demo accounts
          </h2>
          <p className="mt-1 text-sm text-amber-950">
            This installation contains the demo dataset. Every demo account uses the password{" "}
            <code className="rounded bg-white px-1 py-0.5 font-mono text-xs">{demoAccounts[0]!.password}</code>; deactivate
            them before real use.
          </p>
          <ul className="mt-4 space-y-2">
            {demoAccounts.map((account) => (
              <li key={account.email}>
                <form action={formAction}>
                  <input type="hidden" name="returnTo" value={returnTo} />
                  <input type="hidden" name="email" value={account.email} />
                  <input type="hidden" name="password" value={account.password} />
                  <button
                    type="submit"
                    disabled={pending}
                    className="flex w-full items-center justify-between gap-3 rounded-md border border-amber-300 bg-white px-3 py-2 text-left text-sm hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-700 disabled:opacity-70"
                  >
                    <span>
                      <span className="font-medium text-slate-900">Sign in as {account.name}</span>
                      <span className="block text-slate-700">{account.email}</span>
                    </span>
                    <span className="shrink-0 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium text-amber-950">
                      {ROLE_LABELS[account.role] ?? account.role}
                    </span>
                  </button>
                </form>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
