import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { listenOnLoopback } from "../listen-on-loopback";

const run = promisify(execFile);

export type RunningTsa = {
  /** `TSA_URL` (and the credentials when the authority asks for them) for lib/env.ts. */
  env: Record<string, string>;
  url: string;
  /** PEM files: the authority's root (a trust anchor for `openssl ts -verify -CAfile`) and its signing certificate. */
  caFile: string;
  certFile: string;
  /** Time-stamp replies issued so far (granted ones). */
  issued: () => number;
  /** Stops listening (connections are refused, as with an authority that is down); `up()` listens on the same port again. */
  down: () => Promise<void>;
  up: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * A real RFC 3161 time-stamp authority on 127.0.0.1: OpenSSL's `openssl ts -reply` behind a small HTTP
 * responder (POST application/timestamp-query → application/timestamp-reply, RFC 3161 § 3.4). The
 * setup makes a root CA and a TSA certificate under it (extendedKeyUsage critical timeStamping) with
 * `openssl req`/`openssl x509`, in a temporary directory. With `credentials`, a request without that
 * HTTP basic authentication gets 401. Requests are answered one at a time (OpenSSL writes its serial file).
 */
export async function startTsa(options: { credentials?: { username: string; password: string } } = {}): Promise<RunningTsa> {
  const dir = mkdtempSync(join(tmpdir(), "csig-tsa-"));
  const f = (name: string) => join(dir, name);
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f("ca.key"), "-out", f("ca.crt"), "-days", "3650", "-subj", "/CN=Test Time-Stamping Root", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  await run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", f("tsa.key"), "-out", f("tsa.csr"), "-subj", "/CN=Test Time-Stamping Authority"]);
  writeFileSync(f("tsa.ext"), "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature\nextendedKeyUsage=critical,timeStamping\n");
  await run("openssl", ["x509", "-req", "-in", f("tsa.csr"), "-CA", f("ca.crt"), "-CAkey", f("ca.key"), "-CAcreateserial", "-out", f("tsa.crt"), "-days", "3650", "-extfile", f("tsa.ext")]);
  writeFileSync(f("serial"), "01\n");
  writeFileSync(
    f("tsa.cnf"),
    [
      "[ tsa ]",
      "default_tsa = tsa_config",
      "[ tsa_config ]",
      `serial = ${f("serial")}`,
      "crypto_device = builtin",
      `signer_cert = ${f("tsa.crt")}`,
      `certs = ${f("ca.crt")}`,
      `signer_key = ${f("tsa.key")}`,
      "signer_digest = sha256",
      "default_policy = 1.3.6.1.4.1.4146.2.3",
      "other_policies = 1.3.6.1.4.1.4146.2.2",
      "digests = sha256, sha384, sha512",
      "accuracy = secs:1",
      "ordering = yes",
      "tsa_name = yes",
      "ess_cert_id_chain = no",
      "ess_cert_id_alg = sha256",
      "",
    ].join("\n"),
  );

  let issued = 0;
  let queue: Promise<unknown> = Promise.resolve();
  let sequence = 0;
  const expectedAuth = options.credentials ? `Basic ${Buffer.from(`${options.credentials.username}:${options.credentials.password}`).toString("base64")}` : null;

  async function reply(query: Buffer): Promise<Buffer> {
    sequence += 1;
    const queryFile = f(`q${sequence}.tsq`);
    const replyFile = f(`r${sequence}.tsr`);
    writeFileSync(queryFile, query);
    await run("openssl", ["ts", "-reply", "-config", f("tsa.cnf"), "-queryfile", queryFile, "-out", replyFile]);
    const bytes = readFileSync(replyFile);
    issued += 1;
    return bytes;
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.headers["content-type"] !== "application/timestamp-query") {
        res.writeHead(400).end();
        return;
      }
      if (expectedAuth && req.headers.authorization !== expectedAuth) {
        res.writeHead(401, { "www-authenticate": 'Basic realm="tsa"' }).end();
        return;
      }
      const body = Buffer.concat(chunks);
      const answer = queue.then(() => reply(body));
      queue = answer.catch(() => undefined);
      answer.then(
        (bytes) => res.writeHead(200, { "content-type": "application/timestamp-reply", "content-length": bytes.length }).end(bytes),
        () => res.writeHead(500).end(),
      );
    });
  });
  const { port, close } = await listenOnLoopback(server);
  const url = `http://127.0.0.1:${port}/tsr`;
  const env: Record<string, string> = { TSA_URL: url };
  if (options.credentials) Object.assign(env, { TSA_USERNAME: options.credentials.username, TSA_PASSWORD: options.credentials.password });
  return {
    env,
    url,
    caFile: f("ca.crt"),
    certFile: f("tsa.crt"),
    issued: () => issued,
    down: close,
    up: async () => {
      await listenOnLoopback(server, port);
    },
    stop: async () => {
      if (server.listening) await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
