import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

export type RunningS3 = {
  /** Environment for lib/env.ts pointing the file storage at this server. */
  env: Record<string, string>;
  stop: () => Promise<void>;
};

/** The bucket CORS rule of docs/deploy.md (browser PUTs of direct uploads), for the given origins. */
function corsRule(origins: string[]): string {
  return `<CORSConfiguration><CORSRule>${origins.map((o) => `<AllowedOrigin>${o}</AllowedOrigin>`).join("")}<AllowedMethod>PUT</AllowedMethod><AllowedHeader>content-type</AllowedHeader><AllowedHeader>x-amz-checksum-sha256</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3000</MaxAgeSeconds></CORSRule></CORSConfiguration>`;
}

/**
 * A real S3-compatible server (s3rver) on 127.0.0.1 with one empty bucket, in a temp directory; with
 * `corsOrigins`, the bucket has the CORS rule a browser's direct upload needs.
 */
export async function startS3rver(bucket = "documents", options: { corsOrigins?: string[] } = {}): Promise<RunningS3> {
  const directory = mkdtempSync(join(tmpdir(), "csig-s3-"));
  const configs = options.corsOrigins ? [corsRule(options.corsOrigins)] : [];
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
