import { importPKCS8, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { issueLocalAccessToken } from "@/lib/auth/local-tokens";
import { verifyAccessToken } from "@/lib/auth/verify-access-token";
import { setEnvForTests } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { clerkKeys, clerkToken, rsaKeyPair } from "@/tests/helpers/clerk";

const APP_ORIGIN = "http://localhost:3000";

const stranger = rsaKeyPair();

function b64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

async function expectInvalid(token: string): Promise<void> {
  const error = await verifyAccessToken(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).status).toBe(401);
  expect((error as AppError).message).toBe("Invalid or expired token.");
}

describe("verifyAccessToken with Clerk configured (networkless, CLERK_JWT_KEY)", () => {
  beforeAll(() => {
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: `${APP_ORIGIN},https://app.example.test` });
  });
  afterAll(() => {
    setEnvForTests({ CLERK_JWT_KEY: undefined, CLERK_AUTHORIZED_PARTIES: undefined });
  });

  it("accepts a valid Clerk token and yields its subject", async () => {
    await expect(verifyAccessToken(await clerkToken())).resolves.toEqual({ subject: "user_2clerkSubject", provider: "clerk" });
  });

  it("accepts the key pasted on one line or with \\n escapes", async () => {
    for (const pem of [clerkKeys.publicPem.replace(/\n/g, ""), clerkKeys.publicPem.trim().replace(/\n/g, "\\n")]) {
      setEnvForTests({ CLERK_JWT_KEY: pem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN });
      await expect(verifyAccessToken(await clerkToken())).resolves.toMatchObject({ subject: "user_2clerkSubject" });
    }
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN });
  });

  it("rejects an expired token", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalid(await clerkToken({ iat: now - 120, nbf: now - 120, exp: now - 60 }));
  });

  it("rejects a token that is not valid yet", async () => {
    const now = Math.floor(Date.now() / 1000);
    await expectInvalid(await clerkToken({ nbf: now + 120, exp: now + 180 }));
  });

  it("rejects a token signed with another key", async () => {
    await expectInvalid(await clerkToken({ privatePem: stranger.privatePem }));
  });

  it("rejects a tampered payload", async () => {
    const [header, payload, signature] = (await clerkToken()).split(".");
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>;
    const forged = b64url({ ...claims, sub: "user_2someoneElse" });
    await expectInvalid(`${header}.${forged}.${signature}`);
  });

  it("rejects alg: none", async () => {
    const now = Math.floor(Date.now() / 1000);
    const header = b64url({ alg: "none", typ: "JWT", kid: "ins_2abc" });
    const payload = b64url({ sub: "user_2clerkSubject", azp: APP_ORIGIN, iat: now, nbf: now, exp: now + 60 });
    await expectInvalid(`${header}.${payload}.`);
  });

  it("rejects HS256 signed with the public key as the secret (algorithm confusion)", async () => {
    const now = Math.floor(Date.now() / 1000);
    const token = await new SignJWT({ azp: APP_ORIGIN })
      .setProtectedHeader({ alg: "HS256", typ: "JWT" })
      .setSubject("user_2clerkSubject")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode(clerkKeys.publicPem));
    await expectInvalid(token);
  });

  it("rejects a token for another authorized party, and one without azp", async () => {
    await expectInvalid(await clerkToken({ azp: "https://evil.example.test" }));
    const now = Math.floor(Date.now() / 1000);
    const key = await importPKCS8(clerkKeys.privatePem, "RS256");
    const noAzp = await new SignJWT({ sid: "sess_2abc" })
      .setProtectedHeader({ alg: "RS256", kid: "ins_2abc", typ: "JWT" })
      .setSubject("user_2clerkSubject")
      .setIssuedAt(now)
      .setExpirationTime(now + 60)
      .sign(key);
    await expectInvalid(noAzp);
  });

  it("accepts only APP_URL's origin in azp when CLERK_AUTHORIZED_PARTIES is unset", async () => {
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: undefined, APP_URL: "https://sign.example.test/app" });
    await expectInvalid(await clerkToken({ azp: "https://elsewhere.example.test" }));
    await expectInvalid(await clerkToken({ azp: APP_ORIGIN }));
    await expect(verifyAccessToken(await clerkToken({ azp: "https://sign.example.test" }))).resolves.toMatchObject({
      provider: "clerk",
    });
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN, APP_URL: undefined });
  });

  it("adds CLERK_AUTHORIZED_PARTIES to APP_URL's origin", async () => {
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: "https://admin.example.test", APP_URL: "https://sign.example.test" });
    await expect(verifyAccessToken(await clerkToken({ azp: "https://sign.example.test" }))).resolves.toMatchObject({ provider: "clerk" });
    await expect(verifyAccessToken(await clerkToken({ azp: "https://admin.example.test" }))).resolves.toMatchObject({ provider: "clerk" });
    await expectInvalid(await clerkToken({ azp: "https://elsewhere.example.test" }));
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN, APP_URL: undefined });
  });

  it("rejects garbage", async () => {
    await expectInvalid("not-a-jwt");
    await expectInvalid("a.b.c");
  });

  it("still verifies local tokens", async () => {
    const { token } = await issueLocalAccessToken({ subject: "local|someone@example.test" });
    await expect(verifyAccessToken(token)).resolves.toEqual({ subject: "local|someone@example.test", provider: "local" });
  });

  it("rejects every Clerk token when CLERK_JWT_KEY is not a 2048-bit RSA key (the SDK cannot use it)", async () => {
    const big = rsaKeyPair(3072);
    setEnvForTests({ CLERK_JWT_KEY: big.publicPem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN });
    await expectInvalid(await clerkToken({ privatePem: big.privatePem }));
    setEnvForTests({ CLERK_JWT_KEY: clerkKeys.publicPem, CLERK_AUTHORIZED_PARTIES: APP_ORIGIN });
    await expect(verifyAccessToken(await clerkToken())).resolves.toMatchObject({ provider: "clerk" });
  });
});

describe("verifyAccessToken without Clerk", () => {
  it("rejects a Clerk token (only local tokens are accepted)", async () => {
    setEnvForTests({ CLERK_JWT_KEY: undefined, CLERK_SECRET_KEY: undefined });
    await expectInvalid(await clerkToken());
  });
});
