import { MAX_SIGNER_UPLOAD_BYTES } from "@/lib/uploads/upload-limits";

/** Largest file a signer may add to a request (an image or a PDF), by either path (inline or direct upload). */
export const MAX_ATTACHMENT_BYTES = MAX_SIGNER_UPLOAD_BYTES;
/** Most pages a PDF attachment may have. */
export const MAX_ATTACHMENT_PAGES = 50;
/** Most files (any status, rejected ones included) one request may receive. */
export const MAX_FILES_PER_REQUEST = 10;
/** Most requests one signer may be asked for. */
export const MAX_REQUESTS_PER_SIGNER = 20;
/** Largest image accepted, in pixels (a 50-megapixel photo): beyond that it is refused before decoding. */
export const MAX_IMAGE_PIXELS = 50_000_000;
/** An image is scaled down to this many pixels on its longer side before it becomes a page (about 250 dpi on Letter). */
export const PAGE_IMAGE_MAX_SIDE = 2400;
/** What the browser's file input accepts. */
export const ATTACHMENT_ACCEPT = "image/*,application/pdf";
