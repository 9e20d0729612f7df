// npm run bench:storage – large files through object storage (issue 30).
//
// 1. A 50 MB, 300-page package (scanned exhibits: distinct noise JPEGs on the first pages, text after)
//    goes through upload (POST /v1/uploads' createUpload → the bytes PUT straight to the bucket by
//    curl, a separate process, as a browser would → verifyUpload), create (createSigning by upload
//    id), send, sign (recordESignature; one signer, one signature field on the last page) and seal
//    (the job runner in this process, as production runs it without Inngest). Prints the time of each
//    step and this process's peak RSS over its baseline (sampled every 50 ms from after setup). The
//    app's functions run in this process, so its RSS is the server's; the bucket (s3rver) and the
//    client (curl) are other processes, as they are in production. Targets: sealing ≤ 3 s after the
//    last signature; peak RSS growth ≤ 250 MB.
// 2. Bulk send (createSigningsFromCsv, in CSVs of at most 500 rows) of `--bulk <n>` packages (default 1000) from a template whose
//    document is a 5 MB PDF: the database size before and after (pg_database_size) and the bucket's
//    objects: each distinct PDF is stored once, so the bucket does not grow with the packages.
//
// Options: --bulk <n> (BENCH_BULK, default 1000; 0 skips it), --pg-url <url> (BENCH_PG_URL, default
// postgres://postgres@127.0.0.1:5432/postgres): a fresh database csig_bench_files_<hex> is created,
// migrated, seeded and dropped afterwards; s3rver runs in a child process on a free port with a
// temporary directory, removed afterwards. Writes bench/results/large-files-<time>.json.
import { execFileSync, spawn } from "node:child_process";
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { pipeline } from "node:stream/promises";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const MB = 1024 * 1024;
const { values: flags } = parseArgs({ options: { bulk: { type: "string" }, "pg-url": { type: "string" }, "make-pdf": { type: "string" }, mb: { type: "string" }, pages: { type: "string" } } });

/**
 * Child mode: writes a PDF of about `mb` MB and `pages` pages to `path` (distinct noise JPEGs, about
 * 1 MB each, one per page on the first pages; text on the others), so generating it does not count
 * in the measured process's memory.
 */
async function makePdf(path: string, mb: number, pages: number) {
  const { PDFDocument, StandardFonts } = await import("pdf-lib");
  const sharp = (await import("sharp")).default;
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  let bytes = 0;
  for (let page = 1; page <= pages; page++) {
    const p = doc.addPage([612, 792]);
    p.drawText(`Exhibit page ${page} of ${pages}`, { x: 72, y: 740, size: 12, font });
    if (bytes < (mb - 0.25) * MB) {
      const side = 720;
      const noise = await sharp(randomBytes(side * side), { raw: { width: side, height: side, channels: 1 } }).jpeg({ quality: 90 }).toBuffer();
      const image = await doc.embedJpg(noise);
      p.drawImage(image, { x: 36, y: 36, width: 540, height: 690 });
      bytes += noise.byteLength;
    }
  }
  writeFileSync(path, await doc.save());
}

if (flags["make-pdf"]) {
  await makePdf(flags["make-pdf"], Number(flags.mb), Number(flags.pages));
  process.exit(0);
}

const bulkCount = Number(flags.bulk ?? process.env.BENCH_BULK ?? 1000);
const adminUrl = flags["pg-url"] ?? process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SEAL_TARGET_MS = 3000;
const RSS_TARGET_MB = 250;

function pdfFile(dir: string, name: string, mb: number, pages: number): string {
  const path = join(dir, name);
  execFileSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--make-pdf", path, "--mb", String(mb), "--pages", String(pages)], { cwd: REPO, stdio: "inherit" });
  return path;
}

/** s3rver in a child process (its memory is the bucket's, not the server's); resolves with its port. */
async function startS3(dir: string): Promise<{ port: number; stop: () => void }> {
  const script = `const S3rver = require("s3rver");
new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory: ${JSON.stringify(dir)}, configureBuckets: [{ name: "documents" }] })
  .run().then(({ port }) => console.log("PORT " + port));`;
  const child = spawn(process.execPath, ["-e", script], { cwd: REPO, stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<number>((resolvePort, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const match = /PORT (\d+)/.exec(chunk.toString());
      if (match) resolvePort(Number(match[1]));
    });
    child.on("exit", (code) => reject(new Error(`s3rver exited (${code})`)));
  });
  return { port, stop: () => child.kill() };
}

/** This process's peak RSS while `fn` runs, sampled every 50 ms. */
function rssSampler() {
  let peak = process.memoryUsage.rss();
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 50);
  return {
    async step<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number; peakMb: number }> {
      peak = process.memoryUsage.rss();
      const t0 = performance.now();
      const value = await fn();
      const ms = performance.now() - t0;
      peak = Math.max(peak, process.memoryUsage.rss());
      return { value, ms, peakMb: peak / MB };
    },
    stop: () => clearInterval(timer),
  };
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "csig-bench-files-"));
  const s3dir = join(work, "s3");
  mkdirSync(s3dir);
  console.log("generating the PDFs (child processes)…");
  const largePath = pdfFile(work, "large.pdf", 50, 300);
  const bulkPath = bulkCount > 0 ? pdfFile(work, "bulk.pdf", 5, 30) : undefined;
  const s3 = await startS3(s3dir);
  try {
    Object.assign(process.env, {
      S3_BUCKET: "documents",
      S3_ENDPOINT: `http://127.0.0.1:${s3.port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "warn",
    });
    // Imported once the environment names the bucket.
    const { eq, sql } = await import("drizzle-orm");
    const { GetObjectCommand, ListObjectsV2Command, S3Client } = await import("@aws-sdk/client-s3");
    const { documentFields, fileObjects, locations, packageDocuments, packageSeals, packageSigners, sealedDocuments, signingPackages } = await import("@/db/schema");
    const { localSubjectForEmail } = await import("@/lib/auth/local-tokens");
    const { resolvePrincipal } = await import("@/lib/auth/principal");
    const { NewPackageSignerSchema } = await import("@/lib/api/schemas/signers");
    const { getEnv } = await import("@/lib/env");
    const { recordESignature } = await import("@/lib/esignatures/record-esignature");
    const { jobRegistry } = await import("@/lib/job-runner/registry");
    const { startJobPolling } = await import("@/lib/job-runner/start-job-polling");
    const { createSigning } = await import("@/lib/signings/create-signing");
    const { createSigningsFromCsv } = await import("@/lib/signings/create-signings-from-csv");
    const { sendSigning } = await import("@/lib/signings/send-signing");
    const { MAX_SIGNER_CSV_ROWS } = await import("@/lib/signings/parse-signer-csv");
    const { addTemplateDocument } = await import("@/lib/templates/add-template-document");
    const { createTemplate } = await import("@/lib/templates/create-template");
    const { createUpload } = await import("@/lib/uploads/create-upload");
    const { verifyUpload } = await import("@/lib/uploads/verify-upload");
    const { ensureUser } = await import("../tests/helpers/signing-fixtures");

    const { withSeededDatabase } = await import("./seeded-database");
    await withSeededDatabase(adminUrl, "csig_bench_files", async ({ db, name, admin }) => {
      const bucket = new S3Client({ region: "us-east-1", endpoint: process.env.S3_ENDPOINT, forcePathStyle: true, credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" } });
      async function bucketObjects() {
        let count = 0;
        let bytes = 0;
        let token: string | undefined;
        do {
          const page = await bucket.send(new ListObjectsV2Command({ Bucket: "documents", ContinuationToken: token }));
          for (const object of page.Contents ?? []) {
            count++;
            bytes += object.Size ?? 0;
          }
          token = page.NextContinuationToken;
        } while (token);
        return { count, bytes };
      }
      const databaseBytes = async () => Number((await admin.unsafe(`select pg_database_size('${name}') as n`))[0]!.n);
      let stopJobs: (() => Promise<void>) | undefined;
      const sampler = rssSampler();
      try {
        stopJobs = startJobPolling(db, { intervalMs: getEnv().JOBS_POLL_INTERVAL_MS, registry: jobRegistry });
        const manager = (await resolvePrincipal(db, localSubjectForEmail("manager@demo.local")))!;
        const [austin] = await db.select().from(locations).where(eq(locations.name, "Austin Branch"));
        const email = "bench-large@bench.local";
        const signer = await ensureUser(db, email);

        // 1. The 50 MB, 300-page package.
        const largeSize = readFileSync(largePath).byteLength;
        const largeSha = createHash("sha256").update(readFileSync(largePath)).digest("hex");
        const baseline = process.memoryUsage.rss() / MB;
        const steps: Record<string, { ms: number; peakMb: number }> = {};
        const upload = await sampler.step(async () => {
          const created = await createUpload(db, { principal: manager, name: "Loan package.pdf", sizeBytes: largeSize, contentType: "application/pdf", sha256: largeSha });
          const headers = Object.entries(created.put.headers).flatMap(([k, v]) => ["-H", `${k}: ${v}`]);
          execFileSync("curl", ["-sS", "--fail", "-X", "PUT", ...headers, "--data-binary", `@${largePath}`, created.put.url]);
          await verifyUpload(db, { principal: manager, uploadId: created.id });
          return created.id;
        });
        steps.upload = upload;
        const create = await sampler.step(() =>
          createSigning(db, {
            principal: manager,
            locationId: austin!.id,
            title: "Bench: 50 MB package",
            signers: [{ name: signer.name, email, role: "signer", routingOrder: 1 }],
            documents: [{ uploadId: upload.value, name: "Loan package.pdf" }],
          }),
        );
        steps.create = create;
        const packageId = create.value.id;
        const [document] = await db.select().from(packageDocuments).where(eq(packageDocuments.packageId, packageId));
        const [packageSigner] = await db.select().from(packageSigners).where(eq(packageSigners.packageId, packageId));
        await db.insert(documentFields).values({ packageId, documentId: document!.id, signerId: packageSigner!.id, type: "signature", page: document!.pageCount, x: 72, y: 120, width: 220, height: 48 });
        steps.send = await sampler.step(() => sendSigning(db, { principal: manager, packageId }));
        const principal = (await resolvePrincipal(db, localSubjectForEmail(email)))!;
        steps.sign = await sampler.step(() =>
          recordESignature(db, { principal, packageId, documentId: document!.id, signature: { kind: "typed", text: signer.name, font: "great-vibes" }, consent: true }),
        );
        steps.seal = await sampler.step(async () => {
          for (const start = Date.now(); ; ) {
            const [seal] = await db.select({ status: packageSeals.status, lastError: packageSeals.lastError }).from(packageSeals).where(eq(packageSeals.packageId, packageId));
            if (seal?.status === "sealed") return;
            if (seal?.status === "failed") throw new Error(`seal failed: ${seal.lastError}`);
            if (Date.now() - start > 120_000) throw new Error("seal did not finish in 120 s");
            await new Promise((r) => setTimeout(r, 10));
          }
        });
        const peak = Math.max(...Object.values(steps).map((s) => s.peakMb));
        // The sealed file, checked after the measured steps: pdfsig must validate its signature over the whole file.
        const [sealedRow] = await db.select({ storageKey: sealedDocuments.storageKey, sizeBytes: sealedDocuments.sizeBytes }).from(sealedDocuments).where(eq(sealedDocuments.documentId, document!.id));
        const sealedPath = join(work, "sealed.pdf");
        const sealedObject = await bucket.send(new GetObjectCommand({ Bucket: "documents", Key: sealedRow!.storageKey }));
        await pipeline(sealedObject.Body as NodeJS.ReadableStream, createWriteStream(sealedPath));
        const pdfsig = (() => {
          try {
            return execFileSync("pdfsig", [sealedPath]).toString();
          } catch (error) {
            return String((error as { stdout?: Buffer }).stdout ?? error);
          }
        })();
        const sealValid = /Signature is Valid/.test(pdfsig) && /Total document signed/.test(pdfsig);
        const large = {
          sealedSizeBytes: sealedRow!.sizeBytes,
          sealValid,
          sizeBytes: largeSize,
          pages: document!.pageCount,
          baselineRssMb: Math.round(baseline),
          steps: Object.fromEntries(Object.entries(steps).map(([k, s]) => [k, { ms: Math.round(s.ms), peakRssMb: Math.round(s.peakMb) }])),
          peakRssGrowthMb: Math.round(peak - baseline),
          sealMet: steps.seal!.ms <= SEAL_TARGET_MS,
          rssMet: peak - baseline <= RSS_TARGET_MB,
        };
        console.log(`\n50 MB package: ${(largeSize / MB).toFixed(1)} MiB, ${large.pages} pages; baseline RSS ${large.baselineRssMb} MB`);
        for (const [step, s] of Object.entries(large.steps)) console.log(`  ${step.padEnd(7)} ${String(s.ms).padStart(6)} ms   peak RSS ${s.peakRssMb} MB`);
        console.log(`  sealing after the last signature: ${large.steps.seal!.ms} ms (target ≤ ${SEAL_TARGET_MS}: ${large.sealMet ? "met" : "MISSED"})`);
        console.log(`  peak RSS growth: ${large.peakRssGrowthMb} MB (target ≤ ${RSS_TARGET_MB}: ${large.rssMet ? "met" : "MISSED"})`);
        console.log(`  sealed file: ${(large.sealedSizeBytes / MB).toFixed(1)} MiB; pdfsig: ${sealValid ? "signature valid, whole file signed" : "NOT VALID"}`);

        // 2. Bulk send of `bulkCount` packages from a template with a 5 MB PDF.
        let bulk: Record<string, unknown> | undefined;
        if (bulkPath) {
          const bulkBytes = new Uint8Array(readFileSync(bulkPath));
          const template = await createTemplate(db, { principal: manager, organizationId: austin!.organizationId, name: "Bench bulk", roles: [{ key: "buyer", label: "Buyer", role: "signer", routingOrder: 1 }] });
          await addTemplateDocument(db, { principal: manager, templateId: template.id, name: "Contract.pdf", bytes: bulkBytes });
          await db.execute(sql`checkpoint`);
          const dbBefore = await databaseBytes();
          const bucketBefore = await bucketObjects();
          // In CSVs of at most MAX_SIGNER_CSV_ROWS rows, as a user sends them.
          const result = { sent: 0, failed: 0 };
          const t0 = performance.now();
          for (let first = 0; first < bulkCount; first += MAX_SIGNER_CSV_ROWS) {
            const rows = Array.from({ length: Math.min(MAX_SIGNER_CSV_ROWS, bulkCount - first) }, (_, i) => `Bulk ${first + i},bulk-${first + i}@bench.local,Austin Branch`);
            const run = await createSigningsFromCsv(db, { principal: manager, templateId: template.id, csv: `name,email,location\n${rows.join("\n")}\n`, signerSchema: NewPackageSignerSchema, batchId: randomUUID() });
            result.sent += run.sent;
            result.failed += run.failed;
          }
          const ms = performance.now() - t0;
          const dbAfter = await databaseBytes();
          const bucketAfter = await bucketObjects();
          const [keys] = await db
            .select({ documents: sql<number>`count(*)::int`, distinctKeys: sql<number>`count(distinct ${packageDocuments.storageKey})::int` })
            .from(packageDocuments)
            .innerJoin(signingPackages, eq(signingPackages.id, packageDocuments.packageId))
            .where(eq(signingPackages.templateId, template.id));
          const [inDatabase] = await db.select({ n: sql<number>`count(*)::int` }).from(fileObjects);
          bulk = {
            packages: bulkCount,
            sent: result.sent,
            failed: result.failed,
            pdfBytes: bulkBytes.byteLength,
            ms: Math.round(ms),
            databaseBytesBefore: dbBefore,
            databaseBytesAfter: dbAfter,
            databaseGrowthPerPackageBytes: Math.round((dbAfter - dbBefore) / bulkCount),
            bucketBefore,
            bucketAfter,
            packageDocuments: keys!.documents,
            distinctStorageKeys: keys!.distinctKeys,
            fileObjectsRows: inDatabase!.n,
          };
          console.log(`\nbulk send: ${result.sent}/${bulkCount} packages of a ${(bulkBytes.byteLength / MB).toFixed(1)} MiB PDF in ${(ms / 1000).toFixed(1)} s (${result.failed} failed)`);
          console.log(`  database ${(dbBefore / MB).toFixed(1)} MiB → ${(dbAfter / MB).toFixed(1)} MiB (+${((dbAfter - dbBefore) / 1024).toFixed(0)} KiB, ${((dbAfter - dbBefore) / bulkCount / 1024).toFixed(1)} KiB per package)`);
          console.log(`  bucket ${bucketBefore.count} objects, ${(bucketBefore.bytes / MB).toFixed(1)} MiB → ${bucketAfter.count} objects, ${(bucketAfter.bytes / MB).toFixed(1)} MiB`);
          console.log(`  ${keys!.documents} package documents refer to ${keys!.distinctKeys} distinct object(s); file_objects rows: ${inDatabase!.n}`);
        }

        const result = { date: new Date().toISOString(), cores: availableParallelism(), loadavg: loadavg(), large, bulk };
        mkdirSync(join(REPO, "bench", "results"), { recursive: true });
        writeFileSync(join(REPO, "bench", "results", `large-files-${result.date.replace(/[:.]/g, "-")}.json`), `${JSON.stringify(result, null, 2)}\n`);
        if (!large.sealMet || !large.rssMet) process.exitCode = 2;
      } finally {
        sampler.stop();
        await stopJobs?.();
      }
    });
  } finally {
    s3.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
