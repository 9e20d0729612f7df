"use client";

import { lazy } from "react";

// Lazy, like the provider (app/_components/clerk-browser-provider.tsx): without Clerk this page never
// renders them, and a static import would add Clerk's UI code to the page's first load anyway.
const SignIn = lazy(() => import("@/app/_components/clerk-components").then((clerk) => ({ default: clerk.SignIn })));
const SignUp = lazy(() => import("@/app/_components/clerk-components").then((clerk) => ({ default: clerk.SignUp })));

type Props = { mode: "sign-in" | "sign-up"; returnTo: string };

/** Clerk's own sign-in and sign-up components, used instead of the local form when Clerk is configured. */
export function ClerkSignIn({ mode, returnTo }: Props) {
  const signUpUrl = `/sign-in?mode=sign-up&callbackUrl=${encodeURIComponent(returnTo)}`;
  const signInUrl = `/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`;
  return (
    <div className="flex justify-center">
      {mode === "sign-up" ? (
        <SignUp routing="hash" signInUrl={signInUrl} forceRedirectUrl={returnTo} />
      ) : (
        <SignIn routing="hash" signUpUrl={signUpUrl} forceRedirectUrl={returnTo} />
      )}
    </div>
  );
}
