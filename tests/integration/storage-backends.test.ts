import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GetObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { setEnvForTests } from "@/lib/env";
import { fileStorageFor, getFileStorage, type FileStorage } from "@/lib/storage/file-storage";
import { startS3rver, type RunningS3 } from "../fakes/s3/start-s3rver";

let s3: RunningS3;

beforeAll(async () => {
  s3 = await startS3rver();
});
afterAll(async () => {
  setEnvForTests({ S3_BUCKET: "" });
  await s3.stop();
});

const bytes = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 1, 2, 3, 255, 0]);

describe.each(["database", "s3"] as const)("%s file storage", (kind) => {
  let storage: FileStorage;
  beforeAll(() => {
    setEnvForTests(kind === "s3" ? s3.env : { S3_BUCKET: "" });
    storage = getFileStorage();
  });

  it("is the backend chosen by the environment", () => {
    expect(storage.kind).toBe(kind);
  });

  it("round-trips bytes exactly, and put is repeatable with the same key", async () => {
    const stored = await storage.put({ key: `test/${kind}/a.pdf`, bytes, contentType: "application/pdf" });
    expect(stored.storage).toBe(kind);
    expect(Array.from(await storage.get(stored))).toEqual(Array.from(bytes));
    const again = await storage.put({ key: `test/${kind}/a.pdf`, bytes, contentType: "application/pdf" });
    expect(Array.from(await storage.get(again))).toEqual(Array.from(bytes));
    await storage.delete(stored);
    await storage.delete(stored);
  });

  it("an existing file is read through the backend that holds it", async () => {
    const stored = await storage.put({ key: `test/${kind}/b.pdf`, bytes, contentType: "application/pdf" });
    expect(fileStorageFor(stored.storage)).toBe(storage);
  });
});

describe("s3 specifics", () => {
  it("keeps the object in the bucket with its content type, and deletes it", async () => {
    setEnvForTests(s3.env);
    const storage = getFileStorage();
    const stored = await storage.put({ key: "test/object.png", bytes, contentType: "image/png" });
    expect(stored).toEqual({ storage: "s3", storageKey: "test/object.png", content: null });
    const client = new S3Client({
      region: "us-east-1",
      endpoint: s3.env.S3_ENDPOINT,
      forcePathStyle: true,
      credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
    });
    const object = await client.send(new GetObjectCommand({ Bucket: "documents", Key: "test/object.png" }));
    expect(object.ContentType).toBe("image/png");
    await storage.delete(stored);
    await expect(client.send(new GetObjectCommand({ Bucket: "documents", Key: "test/object.png" }))).rejects.toThrow();
  });

  it("a file kept in S3 while S3 is no longer configured: 503", () => {
    setEnvForTests({ S3_BUCKET: "" });
    expect(() => fileStorageFor("s3")).toThrow(expect.objectContaining({ status: 503 }));
  });
});
