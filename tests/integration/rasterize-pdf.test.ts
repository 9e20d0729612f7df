// PDF scans are rendered inside Node; poppler (pdftoppm) is only the independent checker here.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PDFDocument, PDFName, rgb, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { afterAll, describe, expect, it } from "vitest";
import { rasterizePdf } from "@/lib/closings/rasterize-pdf";
import { fullPageFillsPdf } from "../helpers/slow-pdf";

const run = promisify(execFile);
const dir = mkdtempSync(join(tmpdir(), "rasterize-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Two letter pages: the first black on its top half, the second on its bottom half, each with a label. */
async function halves(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (const top of [true, false]) {
    const page = doc.addPage([612, 792]);
    page.drawRectangle({ x: 0, y: top ? 396 : 0, width: 612, height: 396, color: rgb(0, 0, 0) });
    page.drawText(top ? "first" : "second", { x: 250, y: top ? 200 : 600, size: 24, font });
  }
  return doc.save();
}

/** One page of 75,000 tiny filled rectangles (a few KB once compressed): slow to render everywhere. */
async function hostile(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([612, 792]);
  const ops = Array.from({ length: 75_000 }, (_, i) => `${i % 600} ${(i * 7) % 780} 3 3 re f`).join("\n");
  const stream = doc.context.flateStream(ops);
  page.node.set(PDFName.of("Contents"), doc.context.register(stream));
  return doc.save();
}

/** `count` letter pages of text: each one rendered (no page is a single image). */
async function textPages(count: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let i = 1; i <= count; i++) doc.addPage([612, 792]).drawText(`page ${i}`, { x: 72, y: 700, size: 24, font });
  return doc.save();
}

async function darkness(jpeg: Uint8Array, half: "top" | "bottom"): Promise<number> {
  const image = sharp(jpeg).greyscale();
  const { width, height } = await image.metadata();
  const { data } = await image
    .extract({ left: 0, top: half === "top" ? 0 : Math.floor(height! / 2), width: width!, height: Math.floor(height! / 2) })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return 1 - data.reduce((sum, v) => sum + v, 0) / data.length / 255;
}

describe("rasterizePdf", () => {
  it("renders each page at the long edge asked, in page order, as poppler does", async () => {
    const pdf = await halves();
    const pages = await rasterizePdf("halves.pdf", pdf, 2, { longEdge: 1100, quality: 85, pageBudgetMs: 20_000 });
    expect(pages.map((p) => p.page)).toEqual([1, 2]);
    for (const p of pages) {
      const meta = await sharp(p.bytes).metadata();
      expect(meta.format).toBe("jpeg");
      expect(Math.max(meta.width!, meta.height!)).toBe(1100);
    }
    expect(await darkness(pages[0]!.bytes, "top")).toBeGreaterThan(0.9);
    expect(await darkness(pages[0]!.bytes, "bottom")).toBeLessThan(0.1);
    expect(await darkness(pages[1]!.bytes, "bottom")).toBeGreaterThan(0.9);

    // poppler, independently, sees the same pages.
    writeFileSync(join(dir, "halves.pdf"), pdf);
    await run("pdftoppm", ["-scale-to", "1100", "-jpeg", join(dir, "halves.pdf"), join(dir, "pop")]);
    const popped = readdirSync(dir).filter((n) => n.startsWith("pop-")).sort();
    expect(popped).toHaveLength(2);
    for (const [i, name] of popped.entries()) {
      const ours = await darkness(pages[i]!.bytes, "top");
      const theirs = await darkness(new Uint8Array(readFileSync(join(dir, name))), "top");
      expect(Math.abs(ours - theirs)).toBeLessThan(0.05);
    }
  }, 60_000);

  it("refuses a file the renderer cannot read with a 400", async () => {
    const broken = new TextEncoder().encode("%PDF-1.7\nthis is not a PDF body\n%%EOF");
    await expect(rasterizePdf("broken.pdf", broken, 1, { longEdge: 800, quality: 80, pageBudgetMs: 20_000 })).rejects.toMatchObject({
      status: 400,
    });
  }, 60_000);

  it("cancels a page that runs over its budget, and another file's scan does not wait for it", async () => {
    const slow = rasterizePdf("hostile.pdf", await hostile(), 1, { longEdge: 2200, quality: 85, pageBudgetMs: 300 });
    const slowSettled = slow.then(
      () => "rendered",
      (error: { status?: number; message?: string }) => error,
    );
    const normal = await rasterizePdf("halves.pdf", await halves(), 2, { longEdge: 600, quality: 80, pageBudgetMs: 20_000 });
    expect(normal).toHaveLength(2);
    const outcome = await slowSettled;
    expect(outcome).toMatchObject({ status: 400 });
    expect(String((outcome as { message: string }).message)).toContain('Page 1 of "hostile.pdf" took longer than 0.3 s to render');
  }, 60_000);

  it("gives another organization's one-page scan its turn while one organization's hostile page and large file hold theirs", async () => {
    const finished: string[] = [];
    const track = <T>(what: string, work: Promise<T>) =>
      work.then(
        (value) => {
          finished.push(what);
          return value;
        },
        (error: unknown) => {
          finished.push(what);
          return error;
        },
      );
    // Organization A: a hostile page (cancelled only at its budget) and a 20-page file, queued first.
    const hostileA = track("A hostile", rasterizePdf("hostile.pdf", await fullPageFillsPdf(), 1, { longEdge: 2200, quality: 85, pageBudgetMs: 10_000, owner: "org-a" }));
    const largeA = track("A large", rasterizePdf("large.pdf", await textPages(20), 20, { longEdge: 600, quality: 80, pageBudgetMs: 10_000, owner: "org-a" }));
    // Organization B's one page, queued behind both.
    const oneB = await rasterizePdf("one.pdf", await textPages(1), 1, { longEdge: 600, quality: 80, pageBudgetMs: 10_000, owner: "org-b" });
    expect(oneB).toHaveLength(1);
    // B is done while A's hostile page still renders, and A's large file still waits behind it.
    expect(finished).toEqual([]);

    expect(await hostileA).toMatchObject({ status: 400, message: expect.stringContaining('Page 1 of "hostile.pdf" took longer than 10 s') });
    expect(((await largeA) as unknown[]).length).toBe(20);
    expect(finished).toEqual(["A hostile", "A large"]);
  }, 120_000);

  it("lets one organization's file use the idle slot, and calls it back the moment another organization's scan waits", async () => {
    // Organization A alone: four slow pages, so its file takes both slots (a second worker on the idle one).
    const doc = await PDFDocument.create();
    for (let i = 0; i < 4; i++) {
      const page = doc.addPage([612, 792]);
      const ops = Array.from({ length: 75_000 }, (_, j) => `${(j % 10) / 10} g ${j % 7} ${(j + i) % 5} 600 780 re f`).join("\n");
      page.node.set(PDFName.of("Contents"), doc.context.register(doc.context.flateStream(ops)));
    }
    const queue = (globalThis as { __closingSigningScanQueue?: { stats(): { running: number } } }).__closingSigningScanQueue!;
    let settledA = 0;
    const slowA = rasterizePdf("slow.pdf", await doc.save(), 4, { longEdge: 2200, quality: 85, pageBudgetMs: 6_000, owner: "org-a" }).then(
      () => null,
      (error: unknown) => {
        settledA = Date.now();
        return error;
      },
    );
    const deadline = Date.now() + 15_000;
    while (queue.stats().running < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(queue.stats().running).toBe(2);

    // B's one page does not wait for A's pages in work: A's second worker is stopped and B takes its slot.
    const oneB = await rasterizePdf("one.pdf", await textPages(1), 1, { longEdge: 600, quality: 80, pageBudgetMs: 10_000, owner: "org-b" });
    const doneB = Date.now();
    expect(oneB).toHaveLength(1);
    expect(settledA).toBe(0);
    // A's file goes on in its own turn and is refused at its first page's budget, naming it.
    expect(await slowA).toMatchObject({ status: 400, message: expect.stringContaining('Page 1 of "slow.pdf" took longer than 6 s') });
    expect(settledA).toBeGreaterThan(doneB);
  }, 120_000);

  it("cancels a file that needs more memory than its budget, and the next scan renders", async () => {
    await expect(rasterizePdf("halves.pdf", await halves(), 2, { longEdge: 1100, quality: 85, pageBudgetMs: 20_000, heapMb: 8 })).rejects.toMatchObject({
      status: 400,
      message: expect.stringContaining("needs more memory than one page may use"),
    });
    expect(await rasterizePdf("halves.pdf", await halves(), 2, { longEdge: 600, quality: 80, pageBudgetMs: 20_000 })).toHaveLength(2);
  }, 60_000);

  it("takes a page that is one full-page JPEG as it is, byte for byte, and renders a page that is not", async () => {
    const scanned = new Uint8Array(await sharp({ create: { width: 1275, height: 1650, channels: 3, background: "white" } }).greyscale().jpeg({ quality: 70 }).toBuffer());
    const mixed = await PDFDocument.create();
    const image = await mixed.embedJpg(scanned);
    mixed.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 612, height: 792 });
    // The same image on half the page: not a full-page scan, so it is rendered.
    mixed.addPage([612, 792]).drawImage(image, { x: 0, y: 0, width: 306, height: 396 });
    const pages = await rasterizePdf("mixed.pdf", await mixed.save(), 2, { longEdge: 1100, quality: 85, pageBudgetMs: 20_000 });
    expect(Buffer.from(pages[0]!.bytes).equals(Buffer.from(scanned))).toBe(true);
    expect(pages[0]).toMatchObject({ source: "embedded", width: 1275, height: 1650 });
    expect(pages[1]).toMatchObject({ source: "rendered" });
    expect(Math.max((await sharp(pages[1]!.bytes).metadata()).height!)).toBe(1100);
  }, 60_000);

  it("refuses a page whose scanned image is over 36 million pixels with a 413", async () => {
    const huge = new Uint8Array(await sharp({ create: { width: 6200, height: 6000, channels: 3, background: "white" } }).greyscale().jpeg({ quality: 50 }).toBuffer());
    const doc = await PDFDocument.create();
    doc.addPage([612, 592]).drawImage(await doc.embedJpg(huge), { x: 0, y: 0, width: 612, height: 592 });
    await expect(rasterizePdf("huge.pdf", await doc.save(), 1, { longEdge: 1100, quality: 85, pageBudgetMs: 20_000 })).rejects.toMatchObject({
      status: 413,
      message: expect.stringContaining("million pixels"),
    });
  }, 60_000);
});
