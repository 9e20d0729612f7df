import { NextIntlClientProvider } from "next-intl";
import type { ReactNode } from "react";
import en from "@/messages/en.json";

/**
 * The viewer's controls read their words from the catalogs (`viewer` namespace), as a borrower's page
 * gives them in the borrower's language. The manager's console is English and has no catalog of its
 * own: its pages wrap the viewer in this, which hands it the English `viewer` messages only.
 */
export function EnglishViewerText({ children }: { children: ReactNode }) {
  return (
    <NextIntlClientProvider locale="en" messages={{ viewer: en.viewer }} timeZone="UTC">
      {children}
    </NextIntlClientProvider>
  );
}
