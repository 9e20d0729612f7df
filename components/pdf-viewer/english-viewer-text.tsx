import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import { CATALOGS } from "@/lib/i18n/catalogs";

/**
 * The viewer's controls read their words from the catalogs (`viewer` namespace), as a borrower's page
 * gives them in the borrower's language. The manager's console is English and has no catalog of its
 * own: its pages wrap the viewer in this, which hands it the English `viewer` messages only.
 */
export function EnglishViewerText({ children }: { children: ReactNode }) {
  return (
    <NextIntlClientProvider locale="en" messages={{ viewer: CATALOGS.en.viewer }} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}
