// node scripts/generate-icons.mjs – renders public/icon.svg into public/apple-touch-icon.png (180 px)
// and public/favicon.ico (16, 32 and 48 px PNGs in one ICO) with headless Chromium. Run it after
// editing the SVG and commit the outputs; the build does not need Chromium.
import { readFileSync, writeFileSync } from "node:fs";
import { chromium } from "playwright-core";

const svg = readFileSync("public/icon.svg", "utf8");
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu"],
});
try {
  const page = await browser.newPage();
  const render = async (size, { square = false } = {}) => {
    await page.setViewportSize({ width: size, height: size });
    // Apple draws its own rounded mask, so the touch icon is the full square without transparency.
    const background = square ? "#1e40af" : "transparent";
    await page.setContent(
      `<html><body style="margin:0;background:${background}"><img src="data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}" width="${size}" height="${size}" style="display:block${square ? ";border-radius:0" : ""}"></body></html>`,
    );
    return page.screenshot({ type: "png", omitBackground: !square, clip: { x: 0, y: 0, width: size, height: size } });
  };

  writeFileSync("public/apple-touch-icon.png", await render(180, { square: true }));

  const sizes = [16, 32, 48];
  const images = [];
  for (const size of sizes) images.push(await render(size));
  // ICO container: a 6-byte header, one 16-byte directory entry per image, then the PNG bytes.
  const header = Buffer.alloc(6 + 16 * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((png, i) => {
    const entry = 6 + 16 * i;
    header.writeUInt8(sizes[i] % 256, entry);
    header.writeUInt8(sizes[i] % 256, entry + 1);
    header.writeUInt16LE(1, entry + 4);
    header.writeUInt16LE(32, entry + 6);
    header.writeUInt32LE(png.length, entry + 8);
    header.writeUInt32LE(offset, entry + 12);
    offset += png.length;
  });
  writeFileSync("public/favicon.ico", Buffer.concat([header, ...images]));
  console.log("wrote public/apple-touch-icon.png and public/favicon.ico");
} finally {
  await browser.close();
}
