import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

export type RunningS3 = {
  /** Environment for lib/env.ts pointing the file storage at this server. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/**
 * The bucket CORS rule docs/deploy.md ("Bucket CORS") tells operators to set: browsers on `origin` may
 * PUT direct uploads to presigned URLs (s3rver answers a preflight 403 for a bucket without a rule).
 */
function uploadCorsRule(origin: string): string {
  return `<CORSConfiguration><CORSRule><AllowedOrigin>${origin}</AllowedOrigin><AllowedMethod>PUT</AllowedMethod><AllowedHeader>content-type</AllowedHeader><AllowedHeader>x-amz-checksum-sha256</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket, in a temp directory.
 * `corsOrigin`: the app's origin, given the bucket CORS rule of docs/deploy.md (browser tests).
 */
export async function startS3rver(bucket = "documents", options: { corsOrigin?: string } = {}): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), "csig-s3-"));
  const configs = options.corsOrigin ? [uploadCorsRule(options.corsOrigin)] : [];
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket, configs }] });
  const { port } = await server.run();
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "1",
    },
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
