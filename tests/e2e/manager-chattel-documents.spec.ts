import { randomBytes } from "node:crypto";
import { crc32, deflateSync } from "node:zlib";
import postgres from "postgres";
import { renderAgreementPdf } from "@/lib/pdf/pdf";
import { ChattelDocumentsPage } from "./pages/chattel-documents-page";
import { e2eDatabaseUrl, expect, expectNoAxeViolations, signInAs, test } from "./support/fixtures";
import { startNextServer } from "./support/next-server";

// The manager's chattel documents (/documents): create, files and their preview, comments live in two
// browsers, outreach with its preview. Each run makes its own document with a unique title and
// looks only at it; the demo data is not changed.

/** A 2×2 red PNG, built here (chunks with their CRCs) so the test needs no image library. */
function tinyPng(): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.from([0, 255, 0, 0, 255, 0, 0]);
  return Buffer.concat([
    Buffer.from("89504e470d0a1a0a", "hex"),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat([row, row]))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}
const PNG = tinyPng();

test.describe("chattel documents in the manager's console", () => {
  test("create, upload and preview files, live comments with a mention, outreach with a preview", { tag: "@desktop" }, async ({ page, browser }) => {
    test.setTimeout(180_000);
    const suffix = randomBytes(3).toString("hex");
    const title = `Title e2e ${suffix} — 2019 Clayton`;
    const docs = new ChattelDocumentsPage(page);

    await signInAs(page, "manager@demo.local");
    await docs.gotoList();
    await expectNoAxeViolations(page);

    // Create: a missing title is refused next to the field and what was typed stays.
    await docs.gotoNew();
    await expectNoAxeViolations(page);
    await docs.fillNew({ title: "", borrowerName: "Sam Signer", borrowerEmail: "signer@demo.local", dealerName: "Dana Dealer", dealerEmail: `dana.${suffix}@dealer.example`, serial: `CLA${suffix}` });
    await page.getByLabel("Title").evaluate((el) => el.removeAttribute("required"));
    await docs.submitNew();
    await expect(page.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("Borrower name")).toHaveValue("Sam Signer");
    await expect(page.getByLabel("Dealer contact 1 email")).toHaveValue(`dana.${suffix}@dealer.example`);
    await expectNoAxeViolations(page);
    await page.getByLabel("Title").fill(title);
    await docs.submitNew();
    await expect(docs.heading(title)).toBeVisible();
    const documentUrl = page.url();
    expect(documentUrl).toMatch(/\/documents\/[0-9a-f-]{36}$/);
    await expect(page.getByRole("region", { name: "Details" }).getByText(`Dana Dealer <dana.${suffix}@dealer.example>`)).toBeVisible();

    // Files: a PDF and a PNG are stored and previewed; anything else is refused with the API's message.
    const pdf = Buffer.from(await renderAgreementPdf({ title: `Scan ${suffix}`, parties: ["Sam Signer"], pages: 1 }));
    await docs.upload({ name: `title-scan-${suffix}.pdf`, mimeType: "application/pdf", buffer: pdf });
    await expect(page.getByText(`Uploaded title-scan-${suffix}.pdf.`)).toBeVisible();
    await docs.upload({ name: `photo-${suffix}.png`, mimeType: "image/png", buffer: PNG });
    await expect(page.getByText(`Uploaded photo-${suffix}.png.`)).toBeVisible();
    await docs.upload({ name: "notes.pdf", mimeType: "application/pdf", buffer: Buffer.from("not really a pdf") });
    await expect(page.getByText("Only PDF, PNG and JPEG files are accepted.")).toBeVisible();
    await expect(docs.filesList.getByRole("listitem")).toHaveCount(2);
    const image = page.getByRole("img", { name: `Preview of photo-${suffix}.png` });
    await expect(image).toBeVisible();
    expect(await image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(2);
    await page.locator("[data-first-page-painted]").waitFor();
    await expect(page.getByRole("region", { name: /, 1 page$/ })).toBeVisible();
    const download = await page.request.get(`${documentUrl}/files/${await fileIdOf(docs, `title-scan-${suffix}.pdf`)}`);
    expect(Buffer.from(await download.body()).equals(pdf)).toBe(true);
    await expectNoAxeViolations(page);

    // Comments: a second browser (the organization's owner) sees the manager's comment without reloading,
    // and the manager sees the owner's reply the same way.
    const ownerContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const ownerPage = await ownerContext.newPage();
      await signInAs(ownerPage, "owner@demo.local");
      await ownerPage.goto(documentUrl);
      const owner = new ChattelDocumentsPage(ownerPage);
      await expect(owner.comments.getByText("Live: new comments appear here")).toBeVisible();
      await expect(docs.comments.getByText("Live: new comments appear here")).toBeVisible();

      const box = docs.comments.getByLabel("New comment");
      await box.fill(`Title received ${suffix}, please review @oli`);
      await docs.comments.getByRole("button", { name: "Mention Olive Owner" }).click();
      await expect(box).toHaveValue(`Title received ${suffix}, please review @owner@demo.local `);
      await docs.comments.getByRole("button", { name: "Post comment" }).click();

      const seenByOwner = owner.comment("Max Manager", `Title received ${suffix}`);
      await expect(seenByOwner).toBeVisible({ timeout: 15_000 });
      await expect(seenByOwner.getByText("@Olive Owner")).toBeVisible();
      await expect(seenByOwner.getByText("Mentions: Olive Owner")).toBeVisible();

      await seenByOwner.getByText("Reply to Max Manager", { exact: true }).click();
      await seenByOwner.getByLabel("Your reply to Max Manager").fill(`Looks right ${suffix}`);
      await seenByOwner.getByRole("button", { name: "Post reply" }).click();
      await expect(docs.comment("Olive Owner", `Looks right ${suffix}`, "Reply")).toBeVisible({ timeout: 15_000 });
      await expectNoAxeViolations(ownerPage);
    } finally {
      await ownerContext.close();
    }

    // Outreach: the preview is the rendered template, and the sent message shows in the history.
    await docs.outreach.getByLabel("To").selectOption({ label: `Dealer contact: Dana Dealer <dana.${suffix}@dealer.example>` });
    await docs.outreach.getByLabel("Template").selectOption({ label: "Request the document" });
    await docs.outreach.getByLabel("Personal message").fill(`Please send the signed title ${suffix}.`);
    await expect(docs.outreachPreview).toContainText(`Subject: Document needed: ${title}`);
    await expect(docs.outreachPreview).toContainText(`Hello Dana Dealer,`);
    await expect(docs.outreachPreview).toContainText(`Please send the signed title ${suffix}.`);
    await expect(docs.outreachPreview).toContainText("Max Manager");
    await docs.outreach.getByRole("button", { name: "Send message" }).click();
    await expect(docs.outreach.getByText(`Message to dana.${suffix}@dealer.example queued.`)).toBeVisible();
    const sent = docs.historyItem(`Document needed: ${title}`);
    await expect(sent).toBeVisible();
    await expect(sent.getByText("Sent", { exact: true })).toBeVisible({ timeout: 30_000 });
    await expectNoAxeViolations(page);

    // The mail went out (no SMTP here: the dev outbox keeps it, with a reply address to thread replies),
    // and a reply to that address comes back under the message, which turns Replied.
    const url = e2eDatabaseUrl();
    if (url) {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      let replyTo: string;
      try {
        const rows = await sql<{ to: string; text: string; reply_to: string }[]>`select "to", text, reply_to from outbox_emails where subject = ${`Document needed: ${title}`}`;
        expect(rows).toHaveLength(1);
        expect(rows[0]!.to).toBe(`dana.${suffix}@dealer.example`);
        expect(rows[0]!.text).toContain(`Please send the signed title ${suffix}.`);
        expect(rows[0]!.reply_to).toMatch(/^reply\+[0-9a-f]{32}@/);
        replyTo = rows[0]!.reply_to;
      } finally {
        await sql.end();
      }
      const inbound = await page.request.post("/api/webhooks/email", {
        data: { to: replyTo, from: `Dana Dealer <dana.${suffix}@dealer.example>`, subject: `Re: Document needed: ${title}`, text: `Mailed it today ${suffix}.` },
      });
      expect(inbound.status()).toBe(200);
      await expect(async () => {
        await page.reload();
        await expect(sent.getByText("Replied", { exact: true })).toBeVisible({ timeout: 1000 });
      }).toPass({ timeout: 30_000 });
      const replies = sent.getByRole("list", { name: `Replies to Document needed: ${title}` });
      await expect(replies.getByText(`Mailed it today ${suffix}.`)).toBeVisible();
      await expect(replies.getByText(`Reply from Dana Dealer <dana.${suffix}@dealer.example>`)).toBeVisible();
    }

    // 768 px: everything reachable without sideways scrolling.
    await page.setViewportSize({ width: 768, height: 1000 });
    await page.reload();
    await expect(docs.heading(title)).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
    await expectNoAxeViolations(page);

    // The list finds it by serial, in the URL.
    await page.setViewportSize({ width: 1280, height: 800 });
    await docs.gotoList();
    await docs.search(`cla${suffix}`);
    await expect(docs.row(title)).toBeVisible();
    await expect(page.getByRole("row")).toHaveCount(2);
    await expectNoAxeViolations(page);
  });

  test("without real time the comments panel says comments are unavailable and the rest works, uploads too without JavaScript", { tag: "@desktop" }, async ({ browser }) => {
    test.setTimeout(120_000);
    // A second server of the same build, real time switched off (REALTIME_URL empty), on its own demo data.
    const server = await startNextServer(() => ({ REALTIME_URL: "" }));
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: { width: 1280, height: 800 } });
    try {
      const page = await context.newPage();
      const docs = new ChattelDocumentsPage(page);
      await signInAs(page, "manager@demo.local");
      await docs.gotoNew();
      await docs.fillNew({ title: "Without real time", borrowerEmail: "sam@example.com" });
      await docs.submitNew();
      await expect(docs.heading("Without real time")).toBeVisible();
      await expect(docs.comments.getByText("Comments are unavailable: they need the real-time service")).toBeVisible();
      await expect(docs.comments.getByRole("textbox")).toHaveCount(0);
      await docs.upload({ name: "photo.png", mimeType: "image/png", buffer: PNG });
      await expect(page.getByRole("img", { name: "Preview of photo.png" })).toBeVisible();
      await expect(docs.outreachPreview).toContainText("Subject: Document needed: Without real time");
      await expectNoAxeViolations(page);

      // Before (or without) JavaScript the upload is a plain multipart form posting to the server action.
      const noScript = await browser.newContext({ baseURL: server.baseUrl, javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
      try {
        const plain = await noScript.newPage();
        await signInAs(plain, "manager@demo.local");
        await plain.goto(page.url());
        const plainDocs = new ChattelDocumentsPage(plain);
        await plainDocs.upload({ name: "no-script.png", mimeType: "image/png", buffer: PNG });
        await expect(plain.getByText("Uploaded no-script.png.")).toBeVisible();
        await expect(plain.getByRole("img", { name: "Preview of no-script.png" })).toBeVisible();
        await plainDocs.upload({ name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("plain text") });
        await expect(plain.getByText("Only PDF, PNG and JPEG files are accepted.")).toBeVisible();
      } finally {
        await noScript.close();
      }
    } finally {
      await context.close();
      await server.stop();
    }
  });
});

async function fileIdOf(docs: ChattelDocumentsPage, fileName: string): Promise<string> {
  const href = await docs.filesList.getByRole("link", { name: `Download ${fileName}` }).getAttribute("href");
  const id = /files\/([0-9a-f-]{36})/.exec(href ?? "")?.[1];
  if (!id) throw new Error(`no download link for ${fileName}`);
  return id;
}
