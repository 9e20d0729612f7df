import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import { getAuthSecret } from "@/lib/env";

/**
 * The code stamped on every table-packet page: package, document, page and a short MAC, written in
 * QR "alphanumeric" characters so the symbol stays small (33 × 33 modules):
 *
 *   CSP1:<package id, 32 hex>:<document id, 32 hex>:<page>:<check, 10 base32>
 *
 * The check is an HMAC-SHA256 keyed by a key derived from the server's AUTH_SECRET, so a code for one
 * package cannot be made up for another, and the same page always gets the same code.
 */
const PREFIX = "CSP1";
const CHECK_LENGTH = 10;
const BASE32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";

export type PageRef = { packageId: string; documentId: string; page: number };

let cachedKey: { secret: string; key: Buffer } | undefined;

function packetKey(): Buffer {
  const secret = getAuthSecret();
  if (cachedKey?.secret !== secret) {
    cachedKey = { secret, key: Buffer.from(hkdfSync("sha256", secret, "closing-signing", "table-packet-page-code-v1", 32)) };
  }
  return cachedKey.key;
}

function compactId(id: string): string {
  return id.replaceAll("-", "").toUpperCase();
}

function expandId(hex: string): string {
  const h = hex.toLowerCase();
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function pageCheck(ref: PageRef): string {
  const mac = createHmac("sha256", packetKey()).update(`${ref.packageId}:${ref.documentId}:${ref.page}`).digest();
  let out = "";
  for (let i = 0; i < CHECK_LENGTH; i++) {
    // 5 bits at a time.
    const bit = i * 5;
    const byte = bit >> 3;
    const value = ((mac[byte]! << 8) | mac[byte + 1]!) >> (11 - (bit & 7));
    out += BASE32[value & 31];
  }
  return out;
}

export function encodePageCode(ref: PageRef): string {
  return `${PREFIX}:${compactId(ref.packageId)}:${compactId(ref.documentId)}:${ref.page}:${pageCheck(ref)}`;
}

export type DecodedPageCode = { ok: true; ref: PageRef } | { ok: false; reason: "not_ours" | "bad_check" };

/** Reads a code back; a well-formed code whose check does not match is `bad_check` (forged or damaged). */
export function decodePageCode(text: string): DecodedPageCode {
  const match = /^CSP1:([0-9A-F]{32}):([0-9A-F]{32}):([1-9][0-9]{0,4}):([A-Z2-7]{10})$/.exec(text.trim());
  if (!match) return { ok: false, reason: "not_ours" };
  const ref = { packageId: expandId(match[1]!), documentId: expandId(match[2]!), page: Number(match[3]) };
  const expected = Buffer.from(pageCheck(ref));
  const given = Buffer.from(match[4]!);
  if (!timingSafeEqual(expected, given)) return { ok: false, reason: "bad_check" };
  return { ok: true, ref };
}

/** "ABCDE-FGHIJ": the check as printed beside the code. */
export function formatCheck(check: string): string {
  return `${check.slice(0, 5)}-${check.slice(5)}`;
}
