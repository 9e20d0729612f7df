"use client";

import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { focusRing } from "@/components/ui/classes";

export function SignOutButton() {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();

  async function onClick() {
    setPending(true);
    setError(undefined);
    try {
      await signOut({ redirect: false });
      router.replace("/sign-in?signedOut=1");
      router.refresh();
    } catch {
      setError("Sign-out failed. Please try again.");
      setPending(false);
    }
  }

  return (
    <>
      <p role="alert" className="empty:hidden text-sm text-red-800">{error}</p>
      <button
        type="button"
        onClick={onClick}
        disabled={pending}
        className={`rounded-md bg-blue-700 px-4 py-2.5 text-sm font-semibold text-white shadow-sm hover:bg-blue-800 ${focusRing} disabled:opacity-70`}
      >
        {pending ? "Signing out…" : "Sign out"}
      </button>
    </>
  );
}
