import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, TYPE, type MessageFormatElement } from "@formatjs/icu-messageformat-parser";
import { describe, expect, it } from "vitest";
import en from "@/messages/en.json";
import es from "@/messages/es.json";
import { flattenCatalog } from "../helpers/catalogs";

// The borrower's words live in messages/<locale>.json. This fails when a catalog misses a key the
// other has, when a message is empty or not valid ICU, when the two languages disagree on a
// message's arguments, and when a borrower-facing file asks for a key no catalog has.


/** Argument and tag names of an ICU message, nested ones included. */
function argumentsOf(elements: MessageFormatElement[], into = new Set<string>()): Set<string> {
  for (const element of elements) {
    if (element.type === TYPE.argument || element.type === TYPE.number || element.type === TYPE.date || element.type === TYPE.time) into.add(element.value);
    if (element.type === TYPE.select || element.type === TYPE.plural) {
      into.add(element.value);
      for (const option of Object.values(element.options)) argumentsOf(option.value, into);
    }
    if (element.type === TYPE.tag) {
      into.add(`<${element.value}>`);
      argumentsOf(element.children, into);
    }
  }
  return into;
}

const catalogs = { en: flattenCatalog(en), es: flattenCatalog(es) };

/** The files a borrower sees (pages, components, emails, form answers): every key they use must exist. */
const BORROWER_FILES = [
  "app/(signer)/signings/[id]/_components/signer-package-view.tsx",
  "app/(signer)/signings/[id]/_components/consent-step.tsx",
  "app/(signer)/signings/[id]/_components/sign-panel.tsx",
  "app/(signer)/signings/[id]/_components/document-sign-row.tsx",
  "app/(signer)/signings/[id]/_components/bottom-bar.tsx",
  "app/(signer)/signings/[id]/_components/co-signers.tsx",
  "app/(signer)/signings/[id]/_components/flow-steps.tsx",
  "app/(signer)/signings/[id]/_components/decline-dialog.tsx",
  "app/(signer)/signings/[id]/_components/closing-plan.tsx",
  "app/(signer)/signings/[id]/_components/acknowledge-form.tsx",
  "app/(signer)/signings/[id]/done/page.tsx",
  "app/(signer)/signings/[id]/consent-form.ts",
  "app/(signer)/signings/[id]/sign-form.ts",
  "app/(signer)/signings/[id]/action-error-message.ts",
  "app/(signer)/signings/[id]/decline-action.ts",
  "app/(access)/access/[token]/page.tsx",
  "app/(access)/access/verify/[packageId]/page.tsx",
  "app/(access)/access/sent/page.tsx",
  "app/(signer)/me/esignatures/page.tsx",
  "app/(signer)/signings/[id]/bank/page.tsx",
  "app/(signer)/signings/[id]/bank/_components/bank-link.tsx",
  "app/(signer)/signings/[id]/_components/adopt-signature-dialog.tsx",
  "app/(signer)/signings/[id]/_components/signature-draw-pad.tsx",
  "app/(signer)/signings/[id]/_components/signer-fields.tsx",
  "app/(signer)/signings/[id]/_components/stop-texts.tsx",
  "app/(signer)/signings/[id]/_components/stop-texts-form.tsx",
  "app/_components/language/language-switcher.tsx",
  "app/_components/site-frame.tsx",
  "components/pdf-viewer/documents-viewer.tsx",
  "components/pdf-viewer/pdf-document-view.tsx",
  "components/pdf-viewer/pdf-page.tsx",
  "components/sealed-downloads.tsx",
  "lib/email/templates/email-message.ts",
  "lib/email/templates/invite-email.ts",
  "lib/email/templates/your-turn-email.ts",
  "lib/email/templates/reminder-email.ts",
  "lib/email/templates/completed-email.ts",
  "lib/email/templates/cancelled-email.ts",
  "lib/email/templates/signer-code-email.ts",
  "lib/email/templates/new-access-link-email.ts",
  "lib/signer-access/send-signer-code.ts",
];

/**
 * Words that may stay in a borrower-facing component's markup, by file: what only a manager reads
 * there (the console is English). Anything else belongs in the catalogs.
 */
const ALLOWED_LITERALS: Record<string, string[]> = {
  // A failed seal's cause: shown on the manager's package detail only (`audience="manager"`).
  "components/sealed-downloads.tsx": ["Sealing failed", "Last error"],
};

/**
 * English left in a borrower-facing component's markup: a line of JSX text ("Connected", "Sign out")
 * or a literal text attribute (`aria-label="Zoom in"`, `placeholder="Page"`). Comments are skipped;
 * expressions (`{t("…")}`) are what the catalogs feed.
 */
function literalsIn(source: string, allowed: string[] = []): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "").replace(/\{\/\*[\s\S]*?\*\/\}/g, "");
  const found: string[] = [];
  // A line that is only words, between tags: JSX text.
  for (const m of code.matchAll(/^[ \t]*([A-Z][A-Za-z ,.'’:!?()-]*[a-z][A-Za-z ,.'’:!?()-]*)$/gm)) found.push(m[1]!.trim());
  // Words right after a tag on the same line: <p>Some words</p>, <button>Go</button>.
  for (const m of code.matchAll(/(?<![=-])>[ \t]*([A-Za-z][A-Za-z ,.'’:!?-]*[a-z])[ \t]*(?:<|\{)/g)) found.push(m[1]!.trim());
  for (const m of code.matchAll(/\b(?:aria-label|placeholder|title|alt)="([^"]*[A-Za-z]{2,}[^"]*)"/g)) found.push(m[1]!);
  return found.filter((text) => !allowed.includes(text));
}

/**
 * The keys a file asks for: each translator variable (`const t = useTranslations("ns")`,
 * `getTranslations({ locale, namespace: "ns" })`, `borrowerTranslator(locale, "ns")`) and each
 * literal `t("key")` / `t.rich("key", …)` call on it. Keys computed at run time (`t(step)`) are
 * checked by the compiler instead (next-intl's typed messages, i18n/app-config.d.ts).
 */
function keysUsedIn(source: string): { translators: number; keys: string[] } {
  const translators = new Map<string, string>();
  const declaration =
    /(?:const|let)\s+(\w+)\s*=\s*(?:await\s+)?(?:useTranslations\(\s*"(\w+)"\s*\)|getTranslations\(\s*\{[^}]*namespace:\s*"(\w+)"[^}]*\}\s*\)|borrowerTranslator\(\s*[^,]+,\s*"(\w+)"\s*\))/g;
  for (const m of source.matchAll(declaration)) translators.set(m[1]!, (m[2] ?? m[3] ?? m[4])!);
  const keys: string[] = [];
  for (const [name, namespace] of translators) {
    for (const m of source.matchAll(new RegExp(`\\b${name}(?:\\.rich)?\\(\\s*"([\\w.]+)"`, "g"))) keys.push(`${namespace}.${m[1]}`);
  }
  return { translators: translators.size, keys };
}

describe("message catalogs", () => {
  it("have the same keys in every language", () => {
    expect([...catalogs.es.keys()].sort()).toEqual([...catalogs.en.keys()].sort());
  });

  it("have no empty message and only valid ICU messages with the same arguments in both languages", () => {
    for (const [key, english] of catalogs.en) {
      const spanish = catalogs.es.get(key) ?? "";
      expect(english.trim(), `en ${key}`).not.toBe("");
      expect(spanish.trim(), `es ${key}`).not.toBe("");
      const args = (message: string) => [...argumentsOf(parse(message))].sort();
      expect(args(spanish), `arguments of ${key}`).toEqual(args(english));
    }
  });

  it("has every key the borrower-facing files use", () => {
    for (const file of BORROWER_FILES) {
      const { translators, keys } = keysUsedIn(readFileSync(join(process.cwd(), file), "utf8"));
      expect(translators, `${file} takes its words from the catalogs`).toBeGreaterThan(0);
      for (const key of keys) {
        expect(catalogs.en.has(key), `${file}: ${key} missing from messages/en.json`).toBe(true);
        expect(catalogs.es.has(key), `${file}: ${key} missing from messages/es.json`).toBe(true);
      }
    }
  });

  it("leaves no English words in the markup of the borrower-facing components", () => {
    for (const file of BORROWER_FILES.filter((f) => f.endsWith(".tsx"))) {
      expect(literalsIn(readFileSync(join(process.cwd(), file), "utf8"), ALLOWED_LITERALS[file]), `${file} shows words that are not from the catalogs`).toEqual([]);
    }
  });

  it("finds literal words in markup (the literal scanner itself)", () => {
    const sample = [
      "<h2 id=\"bank-connected-heading\">",
      "            Connected",
      "</h2>",
      "<button aria-label=\"Zoom out\" disabled={busy}>−</button>",
      "<input placeholder=\"Page\" />",
      "<p className=\"sr-only\">Loading {name}…</p>",
      "{/* On a phone the bottom bar holds the button. */}",
      "<p>{t(\"title\")}</p>",
      "const label = value ? t(\"a\") : t(\"b\");",
    ].join("\n");
    expect(literalsIn(sample)).toEqual(["Connected", "Loading", "Zoom out", "Page"]);
  });

  it("finds the keys of a file (the scanner itself)", () => {
    const { translators, keys } = keysUsedIn(`const t = useTranslations("sign");\nconst u = await getTranslations({ locale, namespace: "done" });\nt("title"); u.rich("questions", {}); t("nope")`);
    expect(translators).toBe(2);
    expect(keys.sort()).toEqual(["done.questions", "sign.nope", "sign.title"]);
    expect(catalogs.en.has("sign.nope")).toBe(false);
  });
});
