import type { Env } from "@/lib/env";

/**
 * The origins a browser PUTs direct uploads to when S3 storage is configured (the host of the
 * bucket's presigned URLs), for the Content-Security-Policy's `connect-src` of the pages that upload.
 * Path style (`S3_FORCE_PATH_STYLE`): the endpoint itself; otherwise the bucket as a subdomain of the
 * endpoint, or of AWS S3's regional (and legacy global) host. Empty on the embedded default, where the
 * upload goes to the app's own origin. Kept free of the AWS SDK: proxy.ts calls it on every page.
 */
export function bucketUploadOrigins(env: Pick<Env, "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_FORCE_PATH_STYLE">): string[] {
  if (!env.S3_BUCKET) return [];
  if (env.S3_ENDPOINT) {
    const endpoint = new URL(env.S3_ENDPOINT);
    return [env.S3_FORCE_PATH_STYLE ? endpoint.origin : `${endpoint.protocol}//${env.S3_BUCKET}.${endpoint.host}`];
  }
  return [`https://${env.S3_BUCKET}.s3.${env.S3_REGION}.amazonaws.com`, `https://${env.S3_BUCKET}.s3.amazonaws.com`];
}
