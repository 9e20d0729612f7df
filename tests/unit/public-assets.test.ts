import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";

vi.mock("@/app/globals.css", () => ({}));

const { metadata } = await import("@/app/layout");

function publicFile(url: string): Buffer {
  expect(url.startsWith("/")).toBe(true);
  return readFileSync(`public${url}`);
}

describe("public/ and the layout's metadata", () => {
  it("references an SVG icon, a favicon.ico and a 180 px apple-touch-icon that exist and are what they claim", () => {
    const icons = metadata.icons as { icon: { url: string; type?: string }[]; apple: { url: string } };
    const urls = icons.icon.map((i) => i.url);
    expect(urls).toEqual(expect.arrayContaining(["/favicon.ico", "/icon.svg"]));

    expect(publicFile("/icon.svg").toString("utf8")).toMatch(/^<svg [^>]*viewBox="0 0 64 64"/);

    const ico = publicFile("/favicon.ico");
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]);
    const count = ico.readUInt16LE(4);
    const sizes = Array.from({ length: count }, (_, i) => ico.readUInt8(6 + 16 * i) || 256);
    expect(sizes).toEqual(expect.arrayContaining([16, 32]));
    for (let i = 0; i < count; i++) {
      const offset = ico.readUInt32LE(6 + 16 * i + 12);
      expect(ico.subarray(offset, offset + 8).toString("hex")).toBe("89504e470d0a1a0a");
    }

    expect(icons.apple.url).toBe("/apple-touch-icon.png");
    const png = publicFile("/apple-touch-icon.png");
    expect(png.subarray(0, 8).toString("hex")).toBe("89504e470d0a1a0a");
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([180, 180]);
  });

  it("serves a robots.txt that keeps crawlers out, matching the noindex metadata", () => {
    expect(publicFile("/robots.txt").toString("utf8")).toMatch(/^User-agent: \*\nDisallow: \/$/m);
    expect(metadata.robots).toEqual({ index: false, follow: false });
  });
});
