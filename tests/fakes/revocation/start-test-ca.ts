import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { listenOnLoopback } from "../listen-on-loopback";

const run = promisify(execFile);

export type IssuedSealingCertificate = {
  /** `SEALING_P12` (as `base64:…`) and `SEALING_P12_PASSWORD` for lib/env.ts: the key, the certificate and the CA's. */
  env: { SEALING_P12: string; SEALING_P12_PASSWORD: string };
  certFile: string;
  serialHex: string;
};

export type RunningTestCa = {
  /** The CA's certificate (PEM), a trust anchor for `openssl verify` / `openssl ocsp -CAfile`. */
  caFile: string;
  crlUrl: string;
  ocspUrl: string;
  /** Issues an RSA sealing certificate under the CA naming the given revocation services (CRL distribution point, OCSP responder in AIA). */
  issue: (options: { name: string; crl?: boolean; ocsp?: boolean; withoutChain?: boolean }) => Promise<IssuedSealingCertificate>;
  /** Revokes a certificate issued here and republishes the CRL (the OCSP responder answers from the same index). */
  revoke: (certificate: IssuedSealingCertificate) => Promise<void>;
  /** Requests answered so far, by service. */
  requests: () => { crl: number; ocsp: number };
  /** Stops listening (connections refused: the services are down); `up()` listens on the same port again. */
  down: () => Promise<void>;
  up: () => Promise<void>;
  stop: () => Promise<void>;
};

/**
 * A test certificate authority with its revocation services on 127.0.0.1, all OpenSSL: `openssl ca`
 * issues certificates (keeping its index), `openssl ca -gencrl` publishes the CRL served at
 * `GET /ca.crl` (DER), and `openssl ocsp` answers `POST /ocsp` (application/ocsp-request → response,
 * signed by the CA itself, RFC 6960) from the same index. Requests are answered one at a time.
 */
export async function startTestCa(): Promise<RunningTestCa> {
  const dir = mkdtempSync(join(tmpdir(), "csig-ca-"));
  const f = (name: string) => join(dir, name);
  let crl = Buffer.alloc(0);
  const counts = { crl: 0, ocsp: 0 };
  let queue: Promise<unknown> = Promise.resolve();
  let sequence = 0;
  const serialized = <T>(work: () => Promise<T>): Promise<T> => {
    const result = queue.then(work);
    queue = result.catch(() => undefined);
    return result;
  };

  async function ocspReply(request: Buffer): Promise<Buffer> {
    sequence += 1;
    writeFileSync(f(`q${sequence}.der`), request);
    await run("openssl", ["ocsp", "-index", f("index.txt"), "-CA", f("ca.crt"), "-rsigner", f("ca.crt"), "-rkey", f("ca.key"), "-reqin", f(`q${sequence}.der`), "-respout", f(`r${sequence}.der`), "-ndays", "1"]);
    return readFileSync(f(`r${sequence}.der`));
  }

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method === "GET" && req.url === "/ca.crl") {
        counts.crl += 1;
        res.writeHead(200, { "content-type": "application/pkix-crl", "content-length": crl.length }).end(crl);
        return;
      }
      if (req.method === "POST" && req.url === "/ocsp" && req.headers["content-type"] === "application/ocsp-request") {
        counts.ocsp += 1;
        serialized(() => ocspReply(Buffer.concat(chunks))).then(
          (bytes) => res.writeHead(200, { "content-type": "application/ocsp-response", "content-length": bytes.length }).end(bytes),
          () => res.writeHead(500).end(),
        );
        return;
      }
      res.writeHead(404).end();
    });
  });
  const { port, close } = await listenOnLoopback(server);
  const crlUrl = `http://127.0.0.1:${port}/ca.crl`;
  const ocspUrl = `http://127.0.0.1:${port}/ocsp`;

  writeFileSync(f("index.txt"), "");
  writeFileSync(f("serial"), "1000\n");
  writeFileSync(f("crlnumber"), "01\n");
  writeFileSync(
    f("ca.cnf"),
    [
      "[ ca ]",
      "default_ca = test_ca",
      "[ test_ca ]",
      `dir = ${dir}`,
      "database = $dir/index.txt",
      "new_certs_dir = $dir",
      "serial = $dir/serial",
      "crlnumber = $dir/crlnumber",
      "certificate = $dir/ca.crt",
      "private_key = $dir/ca.key",
      "default_md = sha256",
      "default_days = 365",
      "default_crl_days = 7",
      "policy = anything",
      "unique_subject = no",
      "copy_extensions = none",
      "[ anything ]",
      "commonName = supplied",
      "organizationName = optional",
      "",
    ].join("\n"),
  );
  await run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", f("ca.key"), "-out", f("ca.crt"), "-days", "3650", "-subj", "/CN=Test Sealing Root CA", "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign"]);
  const publishCrl = async () => {
    await run("openssl", ["ca", "-config", f("ca.cnf"), "-gencrl", "-out", f("ca.crl.pem")]);
    await run("openssl", ["crl", "-in", f("ca.crl.pem"), "-outform", "DER", "-out", f("ca.crl")]);
    crl = readFileSync(f("ca.crl"));
  };
  await publishCrl();

  return {
    caFile: f("ca.crt"),
    crlUrl,
    ocspUrl,
    issue: async ({ name, crl: withCrl, ocsp, withoutChain }) => {
      const base = f(name);
      await run("openssl", ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", `${base}.key`, "-out", `${base}.csr`, "-subj", `/CN=${name}/O=Closing and Signing tests`]);
      const extensions = ["basicConstraints=CA:FALSE", "keyUsage=critical,digitalSignature,nonRepudiation", "subjectKeyIdentifier=hash", "authorityKeyIdentifier=keyid"];
      if (withCrl) extensions.push(`crlDistributionPoints=URI:${crlUrl}`);
      if (ocsp) extensions.push(`authorityInfoAccess=OCSP;URI:${ocspUrl}`);
      writeFileSync(`${base}.ext`, `${extensions.join("\n")}\n`);
      await run("openssl", ["ca", "-batch", "-config", f("ca.cnf"), "-in", `${base}.csr`, "-out", `${base}.crt`, "-extfile", `${base}.ext`, "-notext"]);
      // The legacy PBE and SHA-1 MAC that node-forge reads.
      await run("openssl", ["pkcs12", "-export", "-inkey", `${base}.key`, "-in", `${base}.crt`, ...(withoutChain ? [] : ["-certfile", f("ca.crt")]), "-out", `${base}.p12`, "-passout", "pass:test-p12", "-keypbe", "PBE-SHA1-3DES", "-certpbe", "PBE-SHA1-3DES", "-macalg", "sha1"]);
      const { stdout } = await run("openssl", ["x509", "-in", `${base}.crt`, "-noout", "-serial"]);
      return {
        env: { SEALING_P12: `base64:${readFileSync(`${base}.p12`).toString("base64")}`, SEALING_P12_PASSWORD: "test-p12" },
        certFile: `${base}.crt`,
        serialHex: stdout.trim().replace(/^serial=/, ""),
      };
    },
    revoke: async (certificate) => {
      await run("openssl", ["ca", "-config", f("ca.cnf"), "-revoke", certificate.certFile]);
      await publishCrl();
    },
    requests: () => ({ ...counts }),
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
