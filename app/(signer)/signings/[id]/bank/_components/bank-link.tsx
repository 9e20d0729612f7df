"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef, useState } from "react";
import { usePlaidLink, type PlaidLinkError, type PlaidLinkOnExit, type PlaidLinkOnSuccess } from "react-plaid-link";
import { BottomBar } from "../../_components/bottom-bar";
import { BankApiError, exchangePublicToken, fetchBankStatus, fetchLinkToken, type BankLinkStatus } from "./bank-api";
import { focusRing } from "@/components/ui/classes";
import { useHydrated } from "@/components/ui/use-hydrated";

type Phase = "idle" | "preparing" | "open" | "saving";

/** What the signer reads under the button; `text` is already in the page's language. */
type Notice =
  | { kind: "exit" | "expired" | "not_saved"; text: string }
  | { kind: "error"; text: string; signedOut?: boolean };

type T = ReturnType<typeof useTranslations<"bankLink">>;

export type BankLinkProps = {
  /** The package whose bank step this is (a signer session from an emailed link is that package's). */
  packageId: string;
  initialStatus: BankLinkStatus;
  /** This request's CSP nonce, put on Plaid's script element (CSP 2 browsers; CSP 3 trusts it through 'strict-dynamic'). */
  cspNonce?: string;
  continueHref: string;
  continueLabel: string;
  /** Where sign-in should bring the signer back to. */
  returnTo: string;
  /** The signer came from an emailed link (no account): an ended session is reopened from the email, not by signing in. */
  linkSession?: boolean;
};

function plaidErrorSentence(error: PlaidLinkError, t: T): string {
  // Plaid's display_message is written for end users (in the language Plaid shows); the rest of its error is for developers.
  const shown = error.display_message?.trim();
  return shown ? t("plaidError", { message: shown }) : t("plaidErrorGeneric");
}

/**
 * The bank step's one action: our link token → Plaid Link over the page → our exchange of the
 * public_token → the institution and "Connected" from `/api/bank/status`. A closed Link, an error
 * or an expired link token ends in a sentence and a retry (with a fresh token); nothing here stores
 * the token or the public_token anywhere but in memory.
 */
export function BankLink({ packageId, initialStatus, cspNonce, continueHref, continueLabel, returnTo, linkSession = false }: BankLinkProps) {
  const router = useRouter();
  const t = useTranslations("bankLink");
  const [status, setStatus] = useState(initialStatus);
  const [token, setToken] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>("idle");
  const [notice, setNotice] = useState<Notice | null>(null);
  /** The signer asked for Link; it opens as soon as a token and Plaid's script are ready. */
  const pendingOpen = useRef(false);
  const connectedHeading = useRef<HTMLHeadingElement>(null);
  const focusConnected = useRef(false);

  const prepareToken = useCallback(async (): Promise<string | null> => {
    try {
      const fresh = await fetchLinkToken(packageId);
      setToken(fresh);
      return fresh;
    } catch (error) {
      setToken(null);
      setNotice(errorNotice(error, linkSession, t));
      return null;
    }
  }, [packageId, linkSession, t]);

  const onSuccess = useCallback<PlaidLinkOnSuccess>(async (publicToken) => {
    // A link token serves one successful Link session: the next attempt gets a new one.
    setToken(null);
    if (!publicToken) {
      setPhase("idle");
      setNotice({ kind: "error", text: t("notFinished") });
      return;
    }
    setPhase("saving");
    try {
      const exchanged = await exchangePublicToken(packageId, publicToken);
      const fresh = await fetchBankStatus(packageId);
      setStatus(fresh);
      setNotice(exchanged.persisted ? null : { kind: "not_saved", text: t("notSaved") });
      focusConnected.current = fresh.connected;
      // The server parts of the page (the flow's steps) show the new state too; this component keeps its own.
      if (fresh.connected) router.refresh();
    } catch (error) {
      setNotice(errorNotice(error, linkSession, t));
    } finally {
      setPhase("idle");
    }
  }, [packageId, linkSession, router, t]);

  const onExit = useCallback<PlaidLinkOnExit>(
    (error) => {
      setPhase("idle");
      if (error?.error_code === "INVALID_LINK_TOKEN") {
        setNotice({ kind: "expired", text: t("expired") });
        setToken(null);
        void prepareToken();
        return;
      }
      if (error) {
        setNotice({ kind: "error", text: plaidErrorSentence(error, t) });
        setToken(null);
        void prepareToken();
        return;
      }
      setNotice({ kind: "exit", text: t("exited") });
    },
    [prepareToken, t],
  );

  const onEvent = useCallback((eventName: string) => {
    if (eventName === "OPEN") setPhase("open");
  }, []);

  // The bank buttons only work with this component's code running: disabled in the server's HTML, so a
  // tap before the page has hydrated (a slow phone, a full page load from the package page) is not lost.
  const hydrated = useHydrated();
  const { open, ready } = usePlaidLink({ token, onSuccess, onExit, onEvent, ...(cspNonce ? { cspNonce } : {}) });

  useEffect(() => {
    if (!pendingOpen.current || !ready || !token) return;
    pendingOpen.current = false;
    open();
  }, [ready, token, open]);

  useEffect(() => {
    if (focusConnected.current && status.connected) {
      focusConnected.current = false;
      connectedHeading.current?.focus();
    }
  }, [status]);

  const start = async () => {
    setNotice(null);
    setPhase("preparing");
    pendingOpen.current = true;
    if (token && ready) {
      pendingOpen.current = false;
      open();
      return;
    }
    if (!token && !(await prepareToken())) {
      pendingOpen.current = false;
      setPhase("idle");
    }
  };

  const busy = phase !== "idle";
  const busyLabel = phase === "saving" ? t("saving") : phase === "open" ? t("waiting") : t("opening");
  const retry = notice !== null && notice.kind !== "not_saved";
  const item = status.connected ? status.item : null;

  return (
    <div className="space-y-5">
      {item ? (
        <section aria-labelledby="bank-connected-heading" className="rounded-lg border border-emerald-300 bg-emerald-50 p-4">
          <h2 id="bank-connected-heading" ref={connectedHeading} tabIndex={-1} className="flex items-center gap-2 text-base font-semibold text-emerald-900 focus:outline-none">
            <span aria-hidden="true" className="flex h-6 w-6 items-center justify-center rounded-full bg-emerald-700 text-sm text-white">
              ✓
            </span>
            {t("connected")}
          </h2>
          <p className="mt-2 text-sm text-slate-900" data-testid="bank-institution">
            {item.institution_name ?? t("yourBank")}
          </p>
          {item.needs_attention ? (
            <p className="mt-2 text-sm text-amber-900">{t("needsAttention")}</p>
          ) : (
            <p className="mt-1 text-sm text-slate-700">{t("canSetUp")}</p>
          )}
        </section>
      ) : null}

      <div role="status" aria-live="polite" className="empty:hidden">
        {notice && notice.kind !== "error" ? (
          <p className={`rounded-md border p-3 text-sm ${notice.kind === "not_saved" ? "border-amber-300 bg-amber-50 text-amber-950" : "border-slate-300 bg-white text-slate-900"}`}>
            {notice.text}
          </p>
        ) : null}
        {busy ? <p className="text-sm text-slate-700">{busyLabel}</p> : null}
      </div>
      <div role="alert" className="empty:hidden">
        {notice?.kind === "error" ? (
          <p className="rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900">
            {notice.text}{" "}
            {notice.signedOut ? (
              <Link href={`/sign-in?callbackUrl=${encodeURIComponent(returnTo)}`} className="font-semibold underline">
                {t("signInAgain")}
              </Link>
            ) : null}
          </p>
        ) : null}
      </div>

      <div>
        <div className="flex flex-col gap-3 sm:flex-row">
          {item && !item.needs_attention ? (
            <>
              {/* On a phone the bottom bar holds "Continue", as on the other steps. */}
              <Link
                href={continueHref}
                className={`hidden min-h-11 items-center justify-center rounded-md bg-[var(--brand-color,#1d4ed8)] px-5 py-2.5 text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing} lg:inline-flex`}
              >
                {continueLabel}
              </Link>
              <button type="button" onClick={start} disabled={busy || !hydrated} className={SECONDARY}>
                {busy ? busyLabel : t("linkDifferent")}
              </button>
            </>
          ) : (
            <>
              <button type="button" onClick={start} disabled={busy || !hydrated} className={PRIMARY}>
                {busy ? busyLabel : retry ? t("tryAgain") : item ? t("linkAgain") : t("link")}
              </button>
              <Link href={continueHref} className={SECONDARY}>
                {item ? continueLabel : t("skip")}
              </Link>
            </>
          )}
        </div>
        {item && !item.needs_attention ? <BottomBar summary="" progress={null} action={{ label: continueLabel, href: continueHref }} /> : null}
      </div>
    </div>
  );
}

const PRIMARY =
  `inline-flex min-h-11 items-center justify-center rounded-md bg-[var(--brand-color,#1d4ed8)] px-5 py-2.5 text-base font-semibold text-white shadow-sm hover:brightness-90 ${focusRing} disabled:cursor-wait disabled:opacity-70`;
const SECONDARY =
  `inline-flex min-h-11 items-center justify-center rounded-md border border-slate-400 bg-white px-5 py-2.5 text-base font-medium text-slate-900 hover:bg-slate-100 ${focusRing} disabled:cursor-wait disabled:opacity-70`;

function errorNotice(error: unknown, linkSession: boolean, t: T): Notice {
  if (error instanceof BankApiError && error.kind === "signed_out" && linkSession) return { kind: "error", text: t("linkSessionEnded") };
  if (error instanceof BankApiError) return { kind: "error", text: t(error.sentence), signedOut: error.kind === "signed_out" };
  return { kind: "error", text: t("unexpected") };
}
