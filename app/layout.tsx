import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { getEnv, isClerkWebConfigured } from "@/lib/env";
import { ClerkBrowserProvider } from "./_components/clerk-browser-provider";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Closing & Signing", template: "%s · Closing & Signing" },
  description: "Review and sign closing documents.",
  // Files in public/: the SVG is the source, scripts/generate-icons.mjs renders the ICO and PNG from it.
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "16x16 32x32 48x48" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: { url: "/apple-touch-icon.png", sizes: "180x180" },
  },
  // Packages, invitations and accounts are private (public/robots.txt disallows crawling too).
  robots: { index: false, follow: false },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

/**
 * Every page renders per request: proxy.ts gives each response a fresh CSP nonce, and a page
 * prerendered at build time would carry scripts without it. With Clerk configured, Clerk's provider
 * wraps every page (clerk-js keeps the short-lived `__session` cookie fresh while a page is open, so
 * a server action posted minutes later is still signed in) and loads clerk-js with the request's
 * nonce. It is imported lazily (`ClerkBrowserProvider`): without Clerk no page downloads its code.
 */
export default async function RootLayout({ children }: { children: ReactNode }) {
  await connection();
  const env = getEnv();
  const clerkKey = isClerkWebConfigured(env) ? env.NEXT_PUBLIC_CLERK_PUBLISHABLE_KEY : undefined;
  const nonce = clerkKey ? ((await headers()).get("x-nonce") ?? undefined) : undefined;
  return (
    <html lang="en">
      <body className="min-h-screen bg-slate-50 text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:block focus:min-h-11 focus:bg-white focus:px-4 focus:py-3 focus:font-medium focus:text-blue-800 focus:underline"
        >
          Skip to content
        </a>
        {clerkKey ? (
          <ClerkBrowserProvider publishableKey={clerkKey} nonce={nonce} signInUrl="/sign-in" signUpUrl="/sign-in?mode=sign-up">
            {children}
          </ClerkBrowserProvider>
        ) : (
          children
        )}
      </body>
    </html>
  );
}
