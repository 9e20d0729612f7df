"use client";

import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { SubmitButton, TextField } from "@/components/form-controls";
import type { DemoAccount } from "@/lib/auth/list-demo-accounts";

type Props = { returnTo: string; initialError?: string; signedOut: boolean; demoAccounts: DemoAccount[] };

const ROLE_LABELS: Record<string, string> = { admin: "Admin", org_admin: "Org admin", manager: "Manager", signer: "Signer" };

export function SignInForm({ returnTo, initialError, signedOut, demoAccounts }: Props) {
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | undefined>(initialError);
  const [pending, setPending] = useState(false);

  async function submit(credentials: { email: string; password: string }) {
    setPending(true);
    setError(undefined);
    try {
      const result = await signIn("credentials", { ...credentials, redirect: false });
      if (result?.ok && !result.error) {
        // A full navigation so every server component renders with the new session.
        window.location.assign(returnTo);
        return;
      }
      setError(result?.error === "CredentialsSignin" || !result?.error ? "The email or password is incorrect." : "Sign-in failed. Please try again.");
    } catch {
      setError("Sign-in failed: the server could not be reached. Please try again.");
    }
    setPending(false);
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void submit({ email, password });
  }

  function signInAs(account: DemoAccount) {
    setEmail(account.email);
    setPassword(account.password);
    void submit({ email: account.email, password: account.password });
  }

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

        <form onSubmit={onSubmit} className="mt-6 space-y-4" aria-describedby={error ? "sign-in-error" : undefined}>
          <TextField
            id="email"
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
          <TextField
            id="password"
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            aria-invalid={error ? true : undefined}
          />
          <SubmitButton pending={pending} pendingLabel="Signing in…">
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
                <button
                  type="button"
                  disabled={pending}
                  onClick={() => signInAs(account)}
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
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </div>
  );
}
