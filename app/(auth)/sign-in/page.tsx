import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { listDemoAccounts } from "@/lib/seed/list-demo-accounts";
import { isClerkWebConfigured } from "@/lib/env";
import { getPagePrincipal, safeReturnPath } from "../../_lib/require-principal";
import { ClerkSignIn } from "./clerk-sign-in";
import { SignInForm } from "./sign-in-form";

export const metadata: Metadata = { title: "Sign in" };

const ERRORS: Record<string, string> = {
  CredentialsSignin: "The email or password is incorrect.",
  SessionRequired: "Please sign in to continue.",
};

type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SignInPage({ searchParams }: Props) {
  const params = await searchParams;
  const returnTo = safeReturnPath(params.callbackUrl);
  const { db, principal } = await getPagePrincipal();
  if (principal) redirect(returnTo);
  if (isClerkWebConfigured()) return <ClerkSignIn mode={params.mode === "sign-up" ? "sign-up" : "sign-in"} returnTo={returnTo} />;

  const demoAccounts = await listDemoAccounts(db);
  const errorCode = typeof params.error === "string" ? params.error : undefined;
  const initialError = errorCode ? (ERRORS[errorCode] ?? "Sign-in failed. Please try again.") : undefined;

  return <SignInForm returnTo={returnTo} initialError={initialError} signedOut={params.signedOut === "1"} demoAccounts={demoAccounts} />;
}
