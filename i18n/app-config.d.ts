import type en from "../messages/en.json";
import type { Locale } from "../lib/i18n/locales";

// Typed keys: `t("key")` on a key missing from messages/en.json fails `tsc` (and the catalog test
// checks that es.json has the same keys).
declare module "next-intl" {
  interface AppConfig {
    Locale: Locale;
    Messages: typeof en;
  }
}
