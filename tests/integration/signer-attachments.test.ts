import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { and, eq, sql } from "drizzle-orm";
import { PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { attachmentRequests, auditLog, fileObjects, packageSeals, signerAttachments, signingPackages, webhookEvents } from "@/db/schema";
import { addSignerAttachment } from "@/lib/attachments/add-signer-attachment";
import { parseAttachmentRequestLines } from "@/lib/attachments/attachment-request-schema";
import { addAttachmentRequests } from "@/lib/attachments/create-attachment-requests";
import { getAttachmentFile, listMyAttachments, listPackageAttachments } from "@/lib/attachments/list-attachments";
import { reviewSignerAttachment } from "@/lib/attachments/review-signer-attachment";
import { localSubjectForEmail } from "@/lib/auth/local-tokens";
import { resolvePrincipal } from "@/lib/auth/principal";
import { recordESignature } from "@/lib/esignatures/record-esignature";
import { sealPackage } from "@/lib/seals/seal-package";
import { createSigning } from "@/lib/signings/create-signing";
import { createTemplate } from "@/lib/templates/create-template";
import { readObject } from "@/lib/storage/objects";
import { expectAppError } from "../helpers/app-error";
import { createTestDb, type TestDb } from "../helpers/db";
import { loadDemoWorld, type DemoWorld } from "../helpers/fixtures";
import { lastDeliveredMailTo } from "../helpers/mail";
import { createSignerPackage } from "../helpers/signing-fixtures";

// Attachments asked of signers: a photo is kept upright and bare as a PDF page, a manager accepts or
// rejects each file, and a package waits for its required attachments before it completes and seals.

let testDb: TestDb;
let world: DemoWorld;
let counter = 0;
const principalFor = (email: string) => resolvePrincipal(testDb.db, localSubjectForEmail(email));
const dir = mkdtempSync(join(tmpdir(), "attachments-test-"));

beforeAll(async () => {
  testDb = await createTestDb();
  world = await loadDemoWorld(testDb.db);
});
afterAll(async () => {
  await testDb.cleanup();
});

/** A sent one-signer package whose signer is asked for a required license and an optional insurance proof. */
async function packageWithRequests() {
  counter += 1;
  const email = `attach-${counter}@example.test`;
  const pkg = await createSignerPackage(testDb.db, { location: world.austin, signers: [{ email }], title: `Attachments ${counter}` });
  const manager = await principalFor("manager@demo.local");
  const [license, insurance] = await addAttachmentRequests(testDb.db, {
    principal: manager,
    packageId: pkg.id,
    signerId: pkg.signers[0]!.id,
    requests: [
      { name: "Driver's license, front and back", description: "Both sides, readable" },
      { name: "Proof of insurance", required: false },
    ],
  });
  return { pkg, email, manager, signer: await principalFor(email), license: license!, insurance: insurance! };
}

/**
 * A 40×20 JPEG (left half red, right half blue) whose EXIF says "rotate 90° clockwise to view"
 * (orientation 6) and carries a GPS position, a camera model and a comment: what a phone sends.
 */
async function phonePhoto(): Promise<Buffer> {
  const left = await sharp({ create: { width: 20, height: 20, channels: 3, background: { r: 255, g: 0, b: 0 } } }).png().toBuffer();
  return sharp({ create: { width: 40, height: 20, channels: 3, background: { r: 0, g: 0, b: 255 } } })
    .composite([{ input: left, left: 0, top: 0 }])
    .jpeg({ quality: 95 })
    .withExif({
      IFD0: { Make: "PhoneMaker", Model: "SecretPhone 12" },
      IFD3: { GPSLatitudeRef: "N", GPSLatitude: "30/1 16/1 0/1", GPSLongitudeRef: "W", GPSLongitude: "97/1 44/1 0/1" },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();
}

/** The JPEG streams embedded in a PDF (the page images), as stored. */
async function embeddedJpegs(pdfBytes: Uint8Array): Promise<Buffer[]> {
  const doc = await PDFDocument.load(pdfBytes);
  const out: Buffer[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (object instanceof PDFRawStream && object.dict.get(PDFName.of("Subtype")) === PDFName.of("Image")) out.push(Buffer.from(object.contents));
  }
  return out;
}

async function pdftotext(bytes: Uint8Array): Promise<string> {
  const file = join(dir, `t-${Math.random().toString(36).slice(2)}.pdf`);
  writeFileSync(file, bytes);
  return (await promisify(execFile)("pdftotext", [file, "-"])).stdout.replace(/\s+/g, " ");
}

describe("a signer's photo", () => {
  it("is kept as a PDF page turned upright, with no EXIF, GPS or camera data left anywhere in the file", async () => {
    const { pkg, signer, license } = await packageWithRequests();
    const photo = await phonePhoto();
    // The test image really carries what must go: orientation 6 and a GPS block.
    const before = await sharp(photo).metadata();
    expect(before.orientation).toBe(6);
    expect(Buffer.from(photo).includes("SecretPhone")).toBe(true);
    const gpsPointer = (exif: Buffer) => exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88]));
    expect(gpsPointer(before.exif!)).toBe(true);

    const added = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: photo, name: "IMG_0042.JPG" } });
    expect(added).toMatchObject({ status: "pending", sourceType: "image/jpeg", pageCount: 1, fileName: "IMG_0042.pdf" });

    const stored = await readObject(testDb.db, added.storageKey);
    expect(Buffer.from(stored.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    // Stored like every file: one content-addressed object, its key the SHA-256 of the bytes.
    expect(added.storageKey).toBe(`sha256/${added.sha256}`);
    const bytes = Buffer.from(stored);
    for (const marker of ["Exif", "GPS", "SecretPhone", "PhoneMaker"]) expect(bytes.includes(marker), marker).toBe(false);

    const [image] = await embeddedJpegs(stored);
    const meta = await sharp(image).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    // Upright: the 40×20 landscape pixels shown rotated 90° clockwise are 20 wide, 40 high, red on top.
    expect([meta.width, meta.height]).toEqual([20, 40]);
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    const [tr, tg, tb] = pixel(10, 5);
    const [br, bg, bb] = pixel(10, 35);
    expect(tr! > 200 && tg! < 60 && tb! < 60, `top is red: ${[tr, tg, tb]}`).toBe(true);
    expect(bb! > 200 && br! < 60 && bg! < 60, `bottom is blue: ${[br, bg, bb]}`).toBe(true);
    // The page has the photo's proportions (portrait).
    const page = (await PDFDocument.load(stored)).getPage(0);
    expect(page.getHeight()).toBeGreaterThan(page.getWidth());

    // The trail names it with its hash; integrators hear of it.
    const [entry] = await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "attachment.added")));
    expect(entry!.after).toMatchObject({ requestId: license.id, sha256: added.sha256, sourceType: "image/jpeg" });
    const events = await testDb.db.select().from(webhookEvents).where(eq(webhookEvents.type, "attachment.added"));
    expect(events.some((e) => (e.data as { attachmentId?: string }).attachmentId === added.id)).toBe(true);
  });

  it("refuses what is not a photo or a PDF, by its bytes whatever its name, and stores nothing", async () => {
    const { pkg, signer, license, insurance, manager } = await packageWithRequests();
    const other = await packageWithRequests();
    const objects = async () => (await testDb.db.select({ key: fileObjects.key }).from(fileObjects)).length;
    const before = await objects();
    const refuse = (bytes: Uint8Array, name: string, status: number, message: RegExp, requestId = license.id) =>
      expectAppError(addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId, file: { bytes, name } }), status, message);

    await refuse(Buffer.from("MZ\x90\x00 this is a program, not a photo"), "license.jpg", 400, /not a photo \(JPEG, PNG or HEIC\) or a PDF/);
    await refuse(Buffer.from("GIF89a......"), "license.png", 400, /not a photo/);
    await refuse(new Uint8Array(0), "empty.jpg", 400, /empty/);
    await refuse(Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]), "broken.jpg", 400, /damaged or cannot be read/);
    await refuse(Buffer.from("%PDF-1.7\n garbage"), "scan.pdf", 400, /PDF/);
    await refuse(Buffer.alloc(21 * 1024 * 1024, 0xff), "huge.jpg", 413, /at most 20 MiB/);
    // Not the caller's request, not a request at all, not the caller's package.
    await refuse(await phonePhoto(), "a.jpg", 404, /not requested of you/, other.license.id);
    await refuse(await phonePhoto(), "a.jpg", 404, /not requested of you/, "not-a-uuid");
    await expectAppError(addSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, requestId: insurance.id, file: { bytes: await phonePhoto(), name: "a.jpg" } }), 404);

    expect(await testDb.db.select().from(signerAttachments).where(eq(signerAttachments.packageId, pkg.id))).toEqual([]);
    expect(await objects()).toBe(before);
    expect(await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "attachment.added")))).toEqual([]);
  });

  it("takes a PNG screenshot (transparency on white) and explains a HEIC photo this server cannot read", async () => {
    const { pkg, signer, license, insurance } = await packageWithRequests();
    const png = await sharp({ create: { width: 30, height: 60, channels: 4, background: { r: 0, g: 128, b: 0, alpha: 0 } } }).png().toBuffer();
    const added = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: png, name: "screenshot.png" } });
    expect(added).toMatchObject({ sourceType: "image/png", pageCount: 1, fileName: "screenshot.pdf" });
    const [jpeg] = await embeddedJpegs(await readObject(testDb.db, added.storageKey));
    const { data } = await sharp(jpeg!).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)].every((channel) => channel > 240), "transparent pixels are white").toBe(true);

    // An iPhone photo in HEVC-coded HEIC, which this server's image library cannot decode: the signer is told what to send instead.
    const heic = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypheic"), Buffer.alloc(4), Buffer.from("mif1heic"), Buffer.alloc(64, 1)]);
    await expectAppError(
      addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: insurance.id, file: { bytes: heic, name: "IMG_0001.HEIC" } }),
      400,
      /HEIC photo cannot be read here: send it as JPEG/,
    );
  });

  it("keeps a PDF as sent after checking it opens", async () => {
    const { pkg, signer, insurance } = await packageWithRequests();
    const doc = await PDFDocument.create();
    doc.addPage([300, 300]);
    doc.addPage([300, 300]);
    const pdf = await doc.save();
    const added = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: insurance.id, file: { bytes: pdf, name: "policy.pdf" } });
    expect(added).toMatchObject({ sourceType: "application/pdf", pageCount: 2, fileName: "policy.pdf" });
    expect(Buffer.from(await readObject(testDb.db, added.storageKey)).equals(Buffer.from(pdf))).toBe(true);
  });
});

describe("review and completion", () => {
  it("a rejected file tells the signer why; the package completes only once the required attachment is accepted, and the seal carries it", async () => {
    const { pkg, email, signer, manager, license, insurance } = await packageWithRequests();
    const first = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: await phonePhoto(), name: "front.jpg" } });

    // Every signature in, but the license is not accepted: the package stays open.
    await recordESignature(testDb.db, { principal: signer, packageId: pkg.id, documentId: pkg.documents[0]!.id, signature: { kind: "typed", text: "Attach Signer", font: "great-vibes" }, consent: true });
    const status = async () => (await testDb.db.select({ s: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, pkg.id)))[0]!.s;
    expect(await status()).toBe("in_progress");

    // A reject needs a reason; with one, the signer is mailed it and sees it.
    await expectAppError(reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: first.id, review: { decision: "reject", reason: " " } as never }), 400, /reason/);
    await expectAppError(reviewSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, attachmentId: first.id, review: { decision: "accept" } }), 403);
    await reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: first.id, review: { decision: "reject", reason: "The back of the license is missing." } });
    await expectAppError(reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: first.id, review: { decision: "accept" } }), 409, /already rejected/);
    const mail = await lastDeliveredMailTo(testDb.db, email);
    expect(mail.subject).toContain("Please send another file");
    expect(mail.text).toContain("The back of the license is missing.");
    expect(mail.text).toContain("Driver's license, front and back");
    const mine = await listMyAttachments(testDb.db, { principal: signer, packageId: pkg.id });
    expect(mine.find((r) => r.id === license.id)).toMatchObject({ status: "missing", files: [{ status: "rejected", rejectReason: "The back of the license is missing." }] });
    expect(await status()).toBe("in_progress");

    // The signer sends another; an optional one waits for review too, then is rejected: still not complete until the license is accepted.
    const second = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: await phonePhoto(), name: "both sides.jpg" } });
    const optional = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: insurance.id, file: { bytes: await (await PDFDocument.create().then(async (d) => (d.addPage(), d))).save(), name: "insurance.pdf" } });
    await reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: optional.id, review: { decision: "reject", reason: "Expired policy" } });
    expect(await status()).toBe("in_progress");
    const { signing } = await reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: second.id, review: { decision: "accept" } });
    expect(signing.status).toBe("completed");
    // Nothing more is taken once accepted, or once the package closed.
    await expectAppError(addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: await phonePhoto(), name: "x.jpg" } }), 409);

    const trail = await testDb.db.select().from(auditLog).where(eq(auditLog.packageId, pkg.id));
    expect(trail.find((e) => e.action === "attachment.rejected" && e.entityId === first.id)!.after).toMatchObject({ reason: "The back of the license is missing.", sha256: first.sha256 });
    expect(trail.find((e) => e.action === "attachment.accepted" && e.entityId === second.id)!.actorUserId).toBe(manager.user.id);
    // Integrators hear of both reviews, by ids only.
    const reviewed = await testDb.db.select().from(webhookEvents).where(sql`${webhookEvents.data}->>'packageId' = ${pkg.id}`);
    expect(reviewed.filter((e) => e.type === "attachment.rejected").map((e) => e.data)).toEqual(
      expect.arrayContaining([expect.objectContaining({ attachmentId: first.id, requestId: license.id }), expect.objectContaining({ attachmentId: optional.id, requestId: insurance.id })]),
    );
    expect(reviewed.filter((e) => e.type === "attachment.accepted").map((e) => e.data)).toEqual([expect.objectContaining({ attachmentId: second.id, signerId: second.signerId })]);
    expect(JSON.stringify(reviewed.map((e) => e.data))).not.toContain("The back of the license is missing.");

    // The seal: the certificate names the accepted attachment with its hash, and the standalone certificate carries its page.
    expect((await sealPackage(testDb.db, { packageId: pkg.id })).outcome).toBe("sealed");
    const [seal] = await testDb.db.select().from(packageSeals).where(eq(packageSeals.packageId, pkg.id));
    const certificate = await readObject(testDb.db, seal!.certificateStorageKey!);
    const text = await pdftotext(certificate);
    expect(text).toContain("Attachments from signers");
    expect(text).toContain(second.sha256);
    expect(text).not.toContain(first.sha256);
    expect(text).not.toContain(optional.sha256);
    const certificatePages = (await PDFDocument.load(certificate)).getPageCount();
    const [sealedImage] = await embeddedJpegs(certificate);
    expect(sealedImage).toBeDefined();
    expect(certificatePages).toBeGreaterThanOrEqual(2);
    const sealedEntry = (await testDb.db.select().from(auditLog).where(and(eq(auditLog.packageId, pkg.id), eq(auditLog.action, "signing.sealed"))))[0]!;
    expect((sealedEntry.after as { attachments: unknown[] }).attachments).toEqual([expect.objectContaining({ attachmentId: second.id, sha256: second.sha256 })]);

    // The manager lists and downloads them; the signer downloads only their own.
    const listed = await listPackageAttachments(testDb.db, { principal: manager, packageId: pkg.id });
    expect(listed.map((r) => [r.name, r.status])).toEqual([
      ["Driver's license, front and back", "accepted"],
      ["Proof of insurance", "missing"],
    ]);
    const download = await getAttachmentFile(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: second.id, as: "manager" });
    expect(download.sha256).toBe(second.sha256);
    await expectAppError(getAttachmentFile(testDb.db, { principal: await principalFor("manager@other.local"), packageId: pkg.id, attachmentId: second.id, as: "manager" }), 404);
  });

  it("an optional request left empty does not hold completion", async () => {
    const { pkg, signer, manager, license } = await packageWithRequests();
    const file = await addSignerAttachment(testDb.db, { principal: signer, packageId: pkg.id, requestId: license.id, file: { bytes: await phonePhoto(), name: "l.jpg" } });
    await reviewSignerAttachment(testDb.db, { principal: manager, packageId: pkg.id, attachmentId: file.id, review: { decision: "accept" } });
    // Accepted before signing: the last signature completes it.
    const res = await recordESignature(testDb.db, { principal: signer, packageId: pkg.id, documentId: pkg.documents[0]!.id, signature: { kind: "typed", text: "A S", font: "great-vibes" }, consent: true });
    expect(res).toBeDefined();
    expect((await testDb.db.select({ s: signingPackages.status }).from(signingPackages).where(eq(signingPackages.id, pkg.id)))[0]!.s).toBe("completed");
  });
});

describe("requests", () => {
  it("are checked, limited and only for open packages' signers", async () => {
    const { pkg, manager } = await packageWithRequests();
    const signerId = pkg.signers[0]!.id;
    await expectAppError(addAttachmentRequests(testDb.db, { principal: manager, packageId: pkg.id, signerId, requests: [{ name: "" }] }), 400, /name/);
    await expectAppError(addAttachmentRequests(testDb.db, { principal: manager, packageId: pkg.id, signerId, requests: [] }), 400);
    await expectAppError(
      addAttachmentRequests(testDb.db, { principal: manager, packageId: pkg.id, signerId, requests: Array.from({ length: 19 }, (_, i) => ({ name: `Doc ${i}` })) }),
      400,
      /at most 20/,
    );
    await expectAppError(addAttachmentRequests(testDb.db, { principal: manager, packageId: pkg.id, signerId: "00000000-0000-4000-8000-000000000000", requests: [{ name: "ID" }] }), 404);
    await expectAppError(addAttachmentRequests(testDb.db, { principal: await principalFor("manager@other.local"), packageId: pkg.id, signerId, requests: [{ name: "ID" }] }), 404);
    expect(await testDb.db.select().from(attachmentRequests).where(eq(attachmentRequests.packageId, pkg.id))).toHaveLength(2);
  });

  it("a template role's requests are asked of the signer taking it, with the signer's own (one per name)", async () => {
    const manager = await principalFor("manager@demo.local");
    const template = await createTemplate(testDb.db, {
      principal: manager,
      organizationId: world.austin.organizationId,
      name: `Attachments template ${++counter}`,
      roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1, attachments: [{ name: "Driver's license", required: true }, { name: "W-2", required: false }] }],
    });
    const signing = await createSigning(testDb.db, {
      principal: manager,
      locationId: world.austin.id,
      templateId: template.id,
      signers: [{ name: "Role Taker", email: `role-${counter}@example.test`, templateRole: "buyer", attachments: [{ name: "w-2" }, { name: "Proof of insurance" }] }],
    });
    const rows = await testDb.db.select().from(attachmentRequests).where(eq(attachmentRequests.packageId, signing.id)).orderBy(attachmentRequests.position);
    expect(rows.map((r) => [r.name, r.required])).toEqual([
      ["Driver's license", true],
      ["W-2", false],
      ["Proof of insurance", true],
    ]);
  });

  it("reads the form's and the CSV's text: one per line or per ';', '(optional)' marks an optional one", () => {
    expect(parseAttachmentRequestLines("Driver's license, front and back | Both sides\nProof of insurance (optional)\n\n")).toEqual([
      { name: "Driver's license, front and back", description: "Both sides", required: true },
      { name: "Proof of insurance", description: null, required: false },
    ]);
    expect(parseAttachmentRequestLines("W-2; Pay stub (Optional)")).toEqual([
      { name: "W-2", description: null, required: true },
      { name: "Pay stub", description: null, required: false },
    ]);
  });
});
