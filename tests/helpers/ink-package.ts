import { execFile } from "node:child_process";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { asc, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { packageDocuments, type PackageDocument } from "@/db/schema";
import type { Principal } from "@/lib/auth/principal";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { createSigning } from "@/lib/signings/create-signing";
import { sendSigning } from "@/lib/signings/send-signing";
import type { DemoWorld } from "./fixtures";
import { ensureUser, managerOf } from "./signing-fixtures";

const run = promisify(execFile);
let counter = 0;

export type InkDocument = { name: string; pages?: number; executionMode?: "esign" | "wet_sign" | "notarize" | "review_only" };

export type SentInkPackage = { id: string; n: number; email: string; name: string; manager: Principal; docs: PackageDocument[] };

/**
 * A sent package of the demo world's Austin location for one new borrower, its documents rendered as
 * agreement PDFs in the order given (each titled with a counter, so no two packages share a PDF).
 * The hybrid-closing and scanback tests build their packages with it; `location` puts the package
 * elsewhere (the Tulsa Office is another organization's).
 */
export async function sentInkPackage(
  db: Db,
  world: DemoWorld,
  input: {
    label: string;
    documents: InkDocument[];
    appointment?: { closingAt: string; closingPlace?: string; settlementAgent?: string };
    location?: DemoWorld["austin"];
  },
): Promise<SentInkPackage> {
  counter += 1;
  const n = counter;
  const email = `${input.label.toLowerCase()}-${n}@demo.local`;
  const user = await ensureUser(db, email);
  const location = input.location ?? world.austin;
  const manager = await managerOf(db, location.organizationId);
  const documents = [];
  for (const d of input.documents) {
    const title = `${d.name.replace(/\.pdf$/, "")} ${n}`;
    const bytes = await renderAgreementPdf({ title, parties: ["Borrower"], pages: d.pages ?? 1 });
    documents.push({ name: d.name, bytes, ...(d.executionMode ? { executionMode: d.executionMode } : {}) });
  }
  const created = await createSigning(db, {
    principal: manager,
    locationId: location.id,
    title: `${input.label} ${n}`,
    signers: [{ name: user.name, email }],
    documents,
    ...(input.appointment ? { appointment: input.appointment } : {}),
  });
  await sendSigning(db, { principal: manager, packageId: created.id });
  const docs = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, created.id)).orderBy(asc(packageDocuments.position));
  return { id: created.id, n, email, name: user.name, manager, docs };
}

/** A PDF printed to grey PNGs at `dpi` with poppler's pdftoppm (the independent rasterizer), pages in order. */
export async function printToPngs(pdf: Uint8Array, dir: string, name: string, dpi = 150): Promise<string[]> {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  await run("pdftoppm", ["-r", String(dpi), "-gray", "-png", file, join(dir, name)]);
  return readdirSync(dir)
    .filter((f) => f.startsWith(`${name}-`) && f.endsWith(".png"))
    .sort()
    .map((f) => join(dir, f));
}
