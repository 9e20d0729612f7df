"use client";

import { lazy } from "react";
import { focusRing } from "@/components/ui/classes";

// Lazy: rendered only with Clerk configured; a static import would add Clerk's code to this page's first load without Clerk too.
const SignOutButton = lazy(() => import("@/app/_components/clerk-components").then((clerk) => ({ default: clerk.SignOutButton })));

/** Sign-out with Clerk: ends the Clerk session, then back to the sign-in page. */
export function ClerkSignOutButton() {
  return (
    <SignOutButton redirectUrl="/sign-in?signedOut=1">
      <button
        type="button"
        className={`rounded-md bg-blue-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 ${focusRing}`}
      >
        Sign out
      </button>
    </SignOutButton>
  );
}
