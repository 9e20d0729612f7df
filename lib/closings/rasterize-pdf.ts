import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import { BadRequest } from "@/lib/errors";
import { RASTERIZE_WORKER_SOURCE } from "./rasterize-pdf-worker-source";

export type RasterizedPage = { page: number; bytes: Uint8Array };

export type RasterizeOptions = {
  /** Long edge of each rendered page in pixels. */
  longEdge: number;
  /** JPEG quality, 0–100. */
  quality: number;
  /** A page that takes longer than this to render cancels the file (its worker is terminated). */
  pageBudgetMs: number;
  /** The worker's JavaScript heap; an over-budget file dies alone. */
  heapMb?: number;
};

/** At most this many files render at once, so one slow file never holds everyone else's. */
const MAX_CONCURRENT = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(task: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await task();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/**
 * Renders the first `pageCount` pages of a PDF to JPEG inside Node (pdfjs-dist on @napi-rs/canvas, in
 * a worker thread): no system binary. Each page must finish within `pageBudgetMs`, else the worker is
 * terminated and the file refused with a 400 naming the page; a file the renderer cannot read is 400.
 */
export function rasterizePdf(name: string, bytes: Uint8Array, pageCount: number, options: RasterizeOptions): Promise<RasterizedPage[]> {
  return slot(
    () =>
      new Promise<RasterizedPage[]>((resolve, reject) => {
        const pages: RasterizedPage[] = [];
        const worker = new Worker(RASTERIZE_WORKER_SOURCE, {
          eval: true,
          workerData: {
            searchFrom: [process.cwd(), ...(process.argv[1] ? [dirname(process.argv[1])] : [])],
            bytes,
            pageCount,
            longEdge: options.longEdge,
            quality: options.quality,
          },
          resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
        });
        let settled = false;
        let timer: NodeJS.Timeout | undefined;
        const finish = (error?: Error) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          void worker.terminate();
          if (error) reject(error);
          else resolve(pages);
        };
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            finish(BadRequest(`Page ${pages.length + 1} of "${name}" took longer than ${Math.round(options.pageBudgetMs / 1000)} s to render; scan it again or upload it as an image.`));
          }, options.pageBudgetMs);
        };
        arm();
        worker.on("message", (message: { type: string; page?: number; bytes?: Uint8Array; message?: string }) => {
          if (message.type === "page") {
            pages.push({ page: message.page!, bytes: message.bytes! });
            arm();
          } else if (message.type === "done") finish();
          else finish(BadRequest(`"${name}" could not be read as a PDF scan.`));
        });
        worker.on("error", () => finish(BadRequest(`"${name}" could not be read as a PDF scan.`)));
        worker.on("exit", () => finish(BadRequest(`"${name}" could not be read as a PDF scan.`)));
      }),
  );
}
