import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import type { Env } from "@/lib/env";
import type { FileStorage } from "./types";

export type S3Config = {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  credentials?: { accessKeyId: string; secretAccessKey: string };
};

export function s3ConfigFrom(env: Env): S3Config | undefined {
  if (!env.S3_BUCKET) return undefined;
  return {
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
    endpoint: env.S3_ENDPOINT,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
    credentials:
      env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY }
        : undefined,
  };
}

/** Any S3-compatible service (AWS S3, MinIO, R2, s3rver in tests) through the AWS SDK. */
export function createS3FileStorage(config: S3Config): FileStorage {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    credentials: config.credentials,
  });
  const keyOf = (file: { storageKey: string | null }) => {
    if (!file.storageKey) throw new Error("An S3-stored file has no storage key.");
    return file.storageKey;
  };
  return {
    kind: "s3",
    put: async ({ key, bytes, contentType }) => {
      await client.send(new PutObjectCommand({ Bucket: config.bucket, Key: key, Body: bytes, ContentType: contentType }));
      return { storage: "s3", storageKey: key, content: null };
    },
    get: async (file) => {
      const object = await client.send(new GetObjectCommand({ Bucket: config.bucket, Key: keyOf(file) }));
      if (!object.Body) throw new Error(`S3 object ${keyOf(file)} has no body.`);
      return object.Body.transformToByteArray();
    },
    delete: async (file) => {
      await client.send(new DeleteObjectCommand({ Bucket: config.bucket, Key: keyOf(file) }));
    },
  };
}
