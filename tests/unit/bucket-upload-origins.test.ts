import { S3Client, PutObjectCommand } from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { describe, expect, it } from "vitest";
import { buildContentSecurityPolicy } from "@/lib/security/content-security-policy";
import { bucketUploadOrigins } from "@/lib/storage/bucket-upload-origins";

// The browser PUTs a direct upload to the bucket's presigned URL: the CSP of every page with an upload form must allow
// that URL's origin, whatever the S3 configuration. The SDK's own presigned URL is the oracle.

const configs = [
  { name: "AWS S3, a region", env: { S3_BUCKET: "closing-docs", S3_ENDPOINT: undefined, S3_REGION: "eu-west-3", S3_FORCE_PATH_STYLE: false } },
  { name: "AWS S3, us-east-1", env: { S3_BUCKET: "closing-docs", S3_ENDPOINT: undefined, S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: false } },
  { name: "an endpoint, path style (MinIO)", env: { S3_BUCKET: "docs", S3_ENDPOINT: "http://127.0.0.1:9000", S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: true } },
  { name: "an endpoint, virtual-hosted (R2-style)", env: { S3_BUCKET: "docs", S3_ENDPOINT: "https://acct.r2.example.com", S3_REGION: "auto", S3_FORCE_PATH_STYLE: false } },
];

describe("bucketUploadOrigins", () => {
  it.each(configs)("names the origin of the SDK's presigned PUT ($name)", async ({ env }) => {
    const client = new S3Client({
      region: env.S3_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: env.S3_FORCE_PATH_STYLE,
      credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret" },
    });
    const url = await getSignedUrl(client, new PutObjectCommand({ Bucket: env.S3_BUCKET, Key: "uploads/x", ContentType: "application/pdf" }), { expiresIn: 60 });
    expect(bucketUploadOrigins(env)).toContain(new URL(url).origin);
  });

  it("is empty on the embedded default", () => {
    expect(bucketUploadOrigins({ S3_BUCKET: undefined, S3_ENDPOINT: undefined, S3_REGION: "us-east-1", S3_FORCE_PATH_STYLE: false })).toEqual([]);
  });

  it("widens connect-src on the pages with a direct-upload form only", () => {
    const csp = (pathname: string) =>
      buildContentSecurityPolicy({ nonce: "n", pathname, production: true, uploadOrigins: ["https://docs.s3.example.com"] })
        .split("; ")
        .find((d) => d.startsWith("connect-src"));
    expect(csp("/signings/new")).toBe("connect-src 'self' https://docs.s3.example.com");
    expect(csp("/signings/0190c5a4-0000-7000-8000-000000000000/edit")).toBe("connect-src 'self' https://docs.s3.example.com");
    for (const page of ["/templates/0190c5a4-0000-7000-8000-000000000000", "/signings/0190c5a4-0000-7000-8000-000000000000/closing", "/documents/0190c5a4-0000-7000-8000-000000000000", "/workspace/settings"]) {
      expect(csp(page), page).toBe("connect-src 'self' https://docs.s3.example.com");
    }
    expect(csp("/signings")).toBe("connect-src 'self'");
    expect(csp("/templates")).toBe("connect-src 'self'");
    expect(csp("/documents")).toBe("connect-src 'self'");
    expect(csp("/signings/0190c5a4-0000-7000-8000-000000000000/closing/pages/x")).toBe("connect-src 'self'");
    expect(csp("/workspace")).toBe("connect-src 'self'");
    // A signer's attachments (package page, done page) and a settlement agent's scans go to the bucket too.
    for (const page of ["/signings/0190c5a4-0000-7000-8000-000000000000", "/signings/0190c5a4-0000-7000-8000-000000000000/done", "/agent/closing/0190c5a4-0000-7000-8000-000000000000"]) {
      expect(csp(page), page).toBe("connect-src 'self' https://docs.s3.example.com");
    }
    expect(csp("/signings/0190c5a4-0000-7000-8000-000000000000/documents/x")).toBe("connect-src 'self'");
    expect(csp("/agent/0190c5a4-0000-7000-8000-000000000000")).toBe("connect-src 'self'");
  });
});
