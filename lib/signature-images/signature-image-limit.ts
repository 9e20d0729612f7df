/**
 * The largest drawn signature accepted, in decoded PNG bytes. Apart from parse-png-data-url.ts (which
 * uses Buffer at its top level) so that the signature pad in the browser can check it without it.
 */
export const MAX_SIGNATURE_IMAGE_BYTES = 200 * 1024;
