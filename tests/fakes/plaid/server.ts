import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

/**
 * A fake of the Plaid endpoints the service uses, for the real `plaid` SDK (point PLAID_BASE_URL at
 * `url`). It listens on 127.0.0.1 only and never ships in production code paths.
 *
 * - `/link/token/create`, `/link/token/get` (expired tokens answer `INVALID_LINK_TOKEN` here, as Link
 *   does when it is opened with one), `/sandbox/public_token/create` (Plaid's sandbox shortcut that
 *   stands in for the Link UI; `institution_id` one of `SANDBOX_INSTITUTIONS`), `/item/public_token/exchange` (single use, expires 30 minutes after issue on the
 *   injectable clock), `/item/get`, `/webhook_verification_key/get`.
 * - Credentials are checked (PLAID-CLIENT-ID / PLAID-SECRET headers, or client_id / secret in the body).
 * - `signWebhook(body)` produces a `Plaid-Verification` JWT with the fake's own ES256 key.
 * Errors use Plaid's shape: HTTP 400 `{ error_type, error_code, error_message, display_message, request_id }`.
 */
export type FakePlaid = {
  url: string;
  clientId: string;
  secret: string;
  /** Milliseconds since the epoch, as the fake sees it. */
  now: () => number;
  advance: (ms: number) => void;
  /** Issues a public token as Link would after the user picks an institution. */
  issuePublicToken: (options?: { institutionId?: string; institutionName?: string }) => string;
  signWebhook: (body: string, options?: { kid?: string; iat?: number; bodySha256?: string }) => Promise<string>;
  /** A fresh key; new webhooks are signed with it. Returns its kid. */
  rotateKey: () => Promise<string>;
  /** Marks a key expired (`expired_at` set) as Plaid does after a rotation. */
  expireKey: (kid: string) => void;
  currentKid: () => string;
  requests: { path: string; body: Record<string, unknown> }[];
  close: () => Promise<void>;
};

/** Plaid's sandbox institutions (a subset), by id. */
export const SANDBOX_INSTITUTIONS: Readonly<Record<string, string>> = {
  ins_109508: "First Platypus Bank",
  ins_109509: "First Gingham Credit Union",
  ins_109510: "Tattersall Federal Credit Union",
  ins_109511: "Tartan Bank",
  ins_109512: "Houndstooth Bank",
};

/** Link tokens live four hours, as Plaid's do. */
const LINK_TOKEN_TTL_MS = 4 * 3600_000;

type Key = { kid: string; privateKey: CryptoKey; publicJwk: JWK; createdAt: number; expiredAt: number | null };

export async function startFakePlaid(options: { clientId?: string; secret?: string; now?: number } = {}): Promise<FakePlaid> {
  const clientId = options.clientId ?? "fake-client-id";
  const secret = options.secret ?? "fake-secret";
  let clock = options.now ?? Date.now();
  const now = () => clock;
  const publicTokens = new Map<string, { itemId: string; issuedAt: number; used: boolean }>();
  const items = new Map<string, { itemId: string; accessToken: string; institutionId: string; institutionName: string; webhook: string | null }>();
  const accessTokens = new Map<string, string>();
  const linkTokens = new Map<string, { userId: string; webhook: string | null; createdAt: number; expiresAt: number }>();
  const keys = new Map<string, Key>();
  let current = "";
  const requests: FakePlaid["requests"] = [];

  const rotateKey = async () => {
    const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
    const kid = randomUUID();
    keys.set(kid, { kid, privateKey, publicJwk: await exportJWK(publicKey), createdAt: Math.floor(clock / 1000), expiredAt: null });
    current = kid;
    return kid;
  };
  await rotateKey();

  const issuePublicToken = (o: { institutionId?: string; institutionName?: string } = {}) => {
    const itemId = `item-${randomUUID()}`;
    const accessToken = `access-sandbox-${randomUUID()}`;
    items.set(itemId, {
      itemId,
      accessToken,
      institutionId: o.institutionId ?? "ins_109508",
      institutionName: o.institutionName ?? "First Platypus Bank",
      webhook: null,
    });
    accessTokens.set(accessToken, itemId);
    const publicToken = `public-sandbox-${randomUUID()}`;
    publicTokens.set(publicToken, { itemId, issuedAt: clock, used: false });
    return publicToken;
  };

  const routes: Record<string, (body: Record<string, unknown>) => [number, unknown]> = {
    "/link/token/create": (body) => {
      const user = body.user as { client_user_id?: string } | undefined;
      if (!user?.client_user_id) return plaidError("INVALID_REQUEST", "MISSING_FIELDS", "user.client_user_id is required");
      const token = `link-sandbox-${randomUUID()}`;
      const expiresAt = clock + LINK_TOKEN_TTL_MS;
      linkTokens.set(token, { userId: user.client_user_id, webhook: typeof body.webhook === "string" ? body.webhook : null, createdAt: clock, expiresAt });
      return [200, { link_token: token, expiration: new Date(expiresAt).toISOString(), request_id: randomUUID() }];
    },
    "/link/token/get": (body) => {
      const token = String(body.link_token ?? "");
      const entry = linkTokens.get(token);
      if (!entry) return plaidError("INVALID_INPUT", "INVALID_LINK_TOKEN", "provided link token is in an invalid format or does not exist");
      if (clock >= entry.expiresAt) return plaidError("INVALID_INPUT", "INVALID_LINK_TOKEN", "provided link token is expired");
      return [
        200,
        {
          link_token: token,
          created_at: new Date(entry.createdAt).toISOString(),
          expiration: new Date(entry.expiresAt).toISOString(),
          metadata: { client_name: null, country_codes: ["US"], language: "en", webhook: entry.webhook },
          request_id: randomUUID(),
        },
      ];
    },
    "/sandbox/public_token/create": (body) => {
      const institutionId = String(body.institution_id ?? "ins_109508");
      const institutionName = SANDBOX_INSTITUTIONS[institutionId];
      if (!institutionName) return plaidError("INVALID_INPUT", "INVALID_INSTITUTION", `invalid institution_id provided: ${institutionId}`);
      return [200, { public_token: issuePublicToken({ institutionId, institutionName }), request_id: randomUUID() }];
    },
    "/item/public_token/exchange": (body) => {
      const entry = publicTokens.get(String(body.public_token ?? ""));
      if (!entry) return plaidError("INVALID_INPUT", "INVALID_PUBLIC_TOKEN", "provided public token is in an invalid format. expected format: public-<environment>-<identifier>");
      if (entry.used) return plaidError("INVALID_INPUT", "INVALID_PUBLIC_TOKEN", "provided public token has already been exchanged");
      if (clock - entry.issuedAt > 30 * 60_000) {
        return plaidError("INVALID_INPUT", "INVALID_PUBLIC_TOKEN", "provided public token is expired. Public tokens expire 30 minutes after creation at which point they can no longer be exchanged");
      }
      entry.used = true;
      const item = items.get(entry.itemId)!;
      return [200, { access_token: item.accessToken, item_id: item.itemId, request_id: randomUUID() }];
    },
    "/item/get": (body) => {
      const itemId = accessTokens.get(String(body.access_token ?? ""));
      if (!itemId) return plaidError("INVALID_INPUT", "INVALID_ACCESS_TOKEN", "provided access token is in an invalid format");
      const item = items.get(itemId)!;
      return [
        200,
        {
          item: {
            item_id: item.itemId,
            institution_id: item.institutionId,
            institution_name: item.institutionName,
            webhook: item.webhook,
            error: null,
            available_products: ["balance"],
            billed_products: ["auth"],
            consent_expiration_time: null,
            update_type: "background",
          },
          status: null,
          request_id: randomUUID(),
        },
      ];
    },
    "/webhook_verification_key/get": (body) => {
      const key = keys.get(String(body.key_id ?? ""));
      if (!key) return plaidError("INVALID_INPUT", "INVALID_WEBHOOK_VERIFICATION_KEY_ID", "invalid key_id provided");
      return [
        200,
        { key: { ...key.publicJwk, alg: "ES256", kid: key.kid, use: "sig", created_at: key.createdAt, expired_at: key.expiredAt }, request_id: randomUUID() },
      ];
    },
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "{}") as Record<string, unknown>;
      } catch {
        return send(res, ...plaidError("INVALID_REQUEST", "INVALID_BODY", "body could not be parsed as JSON"));
      }
      const path = (req.url ?? "/").split("?")[0]!;
      requests.push({ path, body });
      const id = req.headers["plaid-client-id"] ?? body.client_id;
      const key = req.headers["plaid-secret"] ?? body.secret;
      if (id !== clientId || key !== secret) {
        return send(res, ...plaidError("INVALID_INPUT", "INVALID_API_KEYS", "invalid client_id or secret provided"));
      }
      const route = req.method === "POST" ? routes[path] : undefined;
      if (!route) return send(res, ...plaidError("INVALID_REQUEST", "UNKNOWN_FIELDS", `unknown endpoint ${path}`, 404));
      send(res, ...route(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    clientId,
    secret,
    now,
    advance: (ms) => {
      clock += ms;
    },
    issuePublicToken,
    signWebhook: async (body, o = {}) => {
      const key = keys.get(o.kid ?? current)!;
      return new SignJWT({ request_body_sha256: o.bodySha256 ?? createHash("sha256").update(body, "utf8").digest("hex") })
        .setProtectedHeader({ alg: "ES256", kid: key.kid, typ: "JWT" })
        .setIssuedAt(o.iat ?? Math.floor(clock / 1000))
        .sign(key.privateKey);
    },
    rotateKey,
    expireKey: (kid) => {
      const key = keys.get(kid);
      if (key) key.expiredAt = Math.floor(clock / 1000);
    },
    currentKid: () => current,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}

function plaidError(type: string, code: string, message: string, status = 400): [number, unknown] {
  return [status, { error_type: type, error_code: code, error_message: message, display_message: null, request_id: randomUUID() }];
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" });
  res.end(JSON.stringify(body));
}
