"use client";

import { lazy, type ComponentType, type ReactNode } from "react";

type Props = { publishableKey: string; signInUrl: string; signUpUrl: string; nonce?: string; children: ReactNode };

/**
 * `@clerk/nextjs`'s provider, loaded only where it renders, i.e. only when Clerk is configured.
 * A static import (in the root layout or in any module it imports) makes Next collect Clerk's client
 * code (≈ 44 kB gzipped) into the root layout's entry scripts, so every page of a deployment without
 * Clerk would download it. Imported here, in a client module, it becomes a chunk of its own that the
 * browser fetches when React first renders this component.
 *
 * No Suspense boundary on purpose: on the server the page's shell waits for the module (it is loaded
 * once per process), so a `redirect()` in a page still answers 307 rather than streaming a meta
 * refresh; in the browser, hydration waits for the chunk, while the server-rendered HTML (and its
 * native forms) is already usable.
 */
const ClerkProvider = lazy(() =>
  // Outside react-server, "@clerk/nextjs" resolves ClerkProvider to its client component (the types describe the server one).
  import("./clerk-provider-export").then((clerk) => ({ default: clerk.ClerkProvider as unknown as ComponentType<Props> })),
);

export function ClerkBrowserProvider(props: Props) {
  return <ClerkProvider {...props} />;
}
