/** How long the presigned upload (S3's PUT URL or the app's PUT token) stays valid. */
export const UPLOAD_URL_SECONDS = 15 * 60;
/** How long an upload may wait to be attached; after that it is refused, and the sweep deletes it. */
export const UPLOAD_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * The media types a direct upload may declare: PDFs (package, template and chattel documents, scans)
 * and PNG or JPEG images (chattel files, scans, logos). Each form that attaches an upload accepts
 * only its own types.
 */
export const UPLOAD_CONTENT_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;
export type UploadContentType = (typeof UPLOAD_CONTENT_TYPES)[number];
/** The header carrying the app endpoint's single-use PUT token (never in the URL, which logs keep). */
export const UPLOAD_TOKEN_HEADER = "Upload-Token";
/**
 * The most a signer's session may declare for a direct upload: what a signer adds is an attachment,
 * so this is the attachment limit (`MAX_ATTACHMENT_BYTES` in lib/attachments is this value).
 */
export const MAX_SIGNER_UPLOAD_BYTES = 20 * 1024 * 1024;
