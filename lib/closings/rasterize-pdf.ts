import { dirname } from "node:path";
import { Worker } from "node:worker_threads";
import { AppError, BadRequest, Unavailable } from "@/lib/errors";
import { log } from "@/lib/log";
import { createFairQueue, type FairQueue } from "./fair-queue";
import { RASTERIZE_WORKER_SOURCE } from "./rasterize-pdf-worker-source";
import type { FoundCode } from "./read-page-code";

/**
 * One page of a scan PDF as a JPEG: `embedded` when the page was one full-page JPEG, taken as it is
 * (the scanner's own image and resolution), `rendered` when it was drawn at `longEdge`.
 */
export type RasterizedPage = {
  page: number;
  bytes: Uint8Array;
  source: "embedded" | "rendered";
  width: number;
  height: number;
  /** With `codeCorner`: on a rendered page, the first QR code found in its pixels, or null; unset on an embedded page. */
  code?: FoundCode | null;
};

export type RasterizeOptions = {
  /** Long edge of each rendered page in pixels. */
  longEdge: number;
  /** JPEG quality of rendered pages, 0–100. */
  quality: number;
  /** A page that takes longer than this to render cancels the file: its worker is terminated. */
  pageBudgetMs: number;
  /**
   * Starting the worker (loading the renderer) and opening the file: `pageBudgetMs` or 15 s, whichever
   * is longer, unless given. Loading the renderer on a busy machine takes seconds that are no page's fault.
   */
  openBudgetMs?: number;
  /** The worker's JavaScript heap; a file that needs more dies alone. */
  heapMb?: number;
  /** Whose scan this is (an organization): pages get turns round-robin across owners. */
  owner?: string;
  /** Look for a QR code on each rendered page, in its corners of this size then the whole page, as `readPageCode` does. */
  codeCorner?: { width: number; height: number };
};

/** An image on a page larger than this is refused (embedded) or not drawn (rendered): 600 dpi on letter fits. */
export const MAX_IMAGE_PIXELS = 36_000_000;
/** Pages in work at once in this process, and at most this many of them one owner's. */
const SLOTS = 2;
const PER_OWNER = 1;
/** A file with at least this many pages left takes an idle slot for a second worker (starting one costs about a page). */
const HELPER_MIN_PAGES = 4;
/** The least time given to starting a worker and opening its file. */
const OPEN_BUDGET_MS = 15_000;

const globalQueue = globalThis as typeof globalThis & { __closingSigningScanQueue?: FairQueue };
// One queue per process, however many module graphs Next bundles this file into.
const queue: FairQueue = (globalQueue.__closingSigningScanQueue ??= createFairQueue({ slots: SLOTS, perOwner: PER_OWNER }));

type WorkerMessage =
  | { type: "ready"; pageCount: number }
  | { type: "page"; page: number; bytes: Uint8Array; source: "embedded" | "rendered"; width: number; height: number; code?: FoundCode | null }
  | { type: "error"; reason: "unavailable" | "too_large" | "unreadable"; message: string };

/** "20 s", "0.3 s": a budget as a person reads it. */
function formatSeconds(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 100) / 10} s`;
}

/** A worker for one file, read one message at a time, each within a time budget. */
function openSession(name: string, bytes: Uint8Array, options: RasterizeOptions) {
  const worker = new Worker(RASTERIZE_WORKER_SOURCE, {
    eval: true,
    workerData: {
      searchFrom: [process.cwd(), ...(process.argv[1] ? [dirname(process.argv[1])] : [])],
      bytes,
      longEdge: options.longEdge,
      quality: options.quality,
      maxImagePixels: MAX_IMAGE_PIXELS,
      codeCorner: options.codeCorner,
    },
    resourceLimits: { maxOldGenerationSizeMb: options.heapMb ?? 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
    stdout: false,
    stderr: false,
  });
  const inbox: WorkerMessage[] = [];
  let failure: "memory" | "died" | null = null;
  let wake: (() => void) | null = null;
  worker.on("message", (message: WorkerMessage) => {
    inbox.push(message);
    wake?.();
  });
  worker.on("error", (error: Error & { code?: string }) => {
    failure ??= error.code === "ERR_WORKER_OUT_OF_MEMORY" ? "memory" : "died";
    wake?.();
  });
  worker.on("exit", () => {
    failure ??= "died";
    wake?.();
  });
  let closed = false;
  return {
    post(message: { type: "page"; page: number }) {
      worker.postMessage(message);
    },
    /** The worker's next message; `what` names the work (`Page 3 of "scan.pdf"`) in the refusal when it runs over its budget or its memory. */
    async next(what: string, budgetMs: number): Promise<Exclude<WorkerMessage, { type: "error" }>> {
      let timer: NodeJS.Timeout | undefined;
      let overtime = false;
      try {
        while (inbox.length === 0 && !failure && !overtime) {
          await new Promise<void>((resolve) => {
            wake = resolve;
            timer ??= setTimeout(() => {
              overtime = true;
              resolve();
            }, budgetMs);
          });
          wake = null;
        }
      } finally {
        clearTimeout(timer);
      }
      const message = inbox.shift();
      if (message && message.type !== "error") return message;
      if (message?.type === "error") {
        if (message.reason === "unavailable") {
          log.error("scan renderer unavailable", { detail: message.message });
          throw Unavailable(`This server cannot render PDF scans right now: its PDF renderer could not be loaded. Upload the pages as JPEG or PNG images, or try again later.`);
        }
        if (message.reason === "too_large") {
          throw new AppError("payload_too_large", `${message.message} in "${name}", more than ${MAX_IMAGE_PIXELS / 1_000_000} million; scan at 300 dpi or less.`);
        }
        throw BadRequest(`"${name}" could not be read as a PDF scan.`);
      }
      if (overtime) {
        throw BadRequest(`${what} took longer than ${formatSeconds(budgetMs)} to render; scan it again or upload it as an image.`);
      }
      if (failure === "memory") throw BadRequest(`${what} needs more memory than one page may use; scan it again or upload it as an image.`);
      throw BadRequest(`"${name}" could not be read as a PDF scan.`);
    },
    close() {
      if (closed) return;
      closed = true;
      void worker.terminate();
    },
  };
}

/**
 * Pages of a PDF as JPEGs (the first `pages` pages, or the 1-based page numbers listed, in that order;
 * a number past the file's end is skipped), inside Node (no system binary): a page that is one
 * full-page JPEG (a scanner's output) is taken as it is; any other page is rendered with pdfjs-dist on
 * @napi-rs/canvas at `longEdge`. One worker thread per file. Every page, and the opening of the file,
 * waits for a turn in a queue shared by the process (two pages at once, one per owner, round-robin
 * across owners), then must finish within `pageBudgetMs` (the opening within `openBudgetMs`) and the worker's heap, else the worker is
 * terminated and the file refused with a 400 naming the page. A file the reader cannot read is 400;
 * an embedded image over `MAX_IMAGE_PIXELS` is 413; a renderer that cannot be loaded (its native
 * module missing) is 503.
 *
 * While nobody else waits, a file of several pages left also takes the idle slot (`FairQueue.borrow`):
 * a second worker on the same file takes pages from the same list, so one organization's scan uses
 * both cores. When another owner has to wait, that worker is terminated at once, its page goes back
 * to the list, and the file goes on in its own turns.
 */
export async function rasterizePdf(name: string, bytes: Uint8Array, pages: number | readonly number[], options: RasterizeOptions): Promise<RasterizedPage[]> {
  const owner = options.owner ?? "";
  const wanted = typeof pages === "number" ? Array.from({ length: pages }, (_, i) => i + 1) : [...pages];
  const openBudgetMs = options.openBudgetMs ?? Math.max(options.pageBudgetMs, OPEN_BUDGET_MS);
  const sessions = new Set<ReturnType<typeof openSession>>();
  const open = () => {
    const session = openSession(name, bytes, options);
    sessions.add(session);
    return session;
  };
  /** Renders one page (an index into `wanted`) on a session and keeps it. */
  const results = new Map<number, RasterizedPage>();
  const renderOn = async (session: ReturnType<typeof openSession>, index: number) => {
    const number = wanted[index]!;
    session.post({ type: "page", page: number });
    const reply = await session.next(`Page ${number} of "${name}"`, options.pageBudgetMs);
    if (reply.type !== "page" || reply.page !== number) throw BadRequest(`"${name}" could not be read as a PDF scan.`);
    results.set(index, { page: number, bytes: reply.bytes, source: reply.source, width: reply.width, height: reply.height, ...(reply.code !== undefined ? { code: reply.code } : {}) });
  };
  try {
    let count = 0;
    let release = await queue.acquire(owner);
    let primary: ReturnType<typeof openSession>;
    try {
      primary = open();
      const ready = await primary.next(`"${name}"`, openBudgetMs);
      count = ready.type === "ready" ? ready.pageCount : 0;
    } finally {
      release();
    }
    const todo = wanted.flatMap((number, index) => (Number.isInteger(number) && number >= 1 && number <= count ? [index] : []));
    let helperFailure: { error: unknown } | null = null;
    let helping: Promise<void> | null = null;
    let helperCannotOpen = false;

    /** The second worker, on a borrowed turn: pages from the same list until none are left or the turn is called back. */
    const help = async () => {
      let revoked = false;
      let session: ReturnType<typeof openSession> | undefined;
      const giveBack = queue.borrow(owner, () => {
        revoked = true;
        session?.close();
      });
      if (!giveBack) return;
      try {
        session = open();
        if (revoked) return;
        // Starting the helper is no page's fault: when it fails, the file simply goes on with one worker.
        if (!(await session.next(`"${name}"`, openBudgetMs).then(() => true, () => false))) {
          if (!revoked) helperCannotOpen = true;
          return;
        }
        while (todo.length > 0 && !revoked) {
          const index = todo.shift()!;
          try {
            await renderOn(session, index);
          } catch (error) {
            if (revoked) {
              todo.unshift(index);
              return;
            }
            throw error;
          }
        }
      } finally {
        session?.close();
        giveBack();
      }
    };
    const startHelper = () => {
      if (helping || helperCannotOpen || todo.length < HELPER_MIN_PAGES) return;
      helping = help()
        .catch((error: unknown) => void (helperFailure ??= { error }))
        .finally(() => void (helping = null));
    };

    for (;;) {
      while (todo.length > 0 && !helperFailure) {
        startHelper();
        release = await queue.acquire(owner);
        try {
          const index = todo.shift();
          if (index !== undefined) await renderOn(primary, index);
        } finally {
          release();
        }
      }
      // A helper called back hands its page back; wait for it before deciding the file is done.
      await helping;
      if (helperFailure) throw (helperFailure as { error: unknown }).error;
      if (todo.length === 0) break;
    }
    return [...results.keys()].sort((a, b) => a - b).map((index) => results.get(index)!);
  } finally {
    for (const session of sessions) session.close();
  }
}
