import { IDENTIFICATION_LABELS } from "@/lib/in-person/identification";
import { AUTH_METHOD_LABELS } from "@/lib/signer-access/rules";
import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFImage, type PDFPage } from "pdf-lib";
import type { SealEvidence } from "./load-seal-evidence";
import { formatSealTime } from "./format-seal-time";
import { toPdfText } from "@/lib/pdf/pdf-text";

const TEXT = rgb(0.1, 0.1, 0.12);
const MUTED = rgb(0.35, 0.37, 0.42);
const RULE = rgb(0.8, 0.82, 0.86);
const PAGE = { width: 612, height: 792, margin: 56 };
/** The lender's logo fits in this box at the top of the first certificate page. */
const LOGO_BOX = { width: 180, height: 40 };
const EXECUTION_MODE_TEXT = {
  esign: "e-signed",
  wet_sign: "signed in ink at the closing table (scanned back)",
  notarize: "signed in ink before a notary (scanned back)",
  review_only: "review only (receipt acknowledged)",
} as const;

export type CertificateOptions = {
  evidence: SealEvidence;
  /** The document this copy of the certificate is appended to; omitted for the standalone certificate. */
  documentId?: string;
  sealedAt: Date;
  verifyUrl: string;
  /**
   * The authoritative copies' SHA-256 by document id (transferable records), known once the documents
   * are sealed: the standalone certificate prints them. A document's own appended certificate cannot
   * hold its own hash; it says the file is the authoritative copy.
   */
  authoritativeCopies?: Record<string, string>;
};

/**
 * Appends the certificate of completion to `pdfDoc`: the package and its organization, each
 * document's SHA-256 before signing, each signer (name, email, role, routing order, consent, viewed
 * and signed times, IP address and user agent of every signature) and the audit chain's head hash.
 * It carries the lender's brand: a band of its colour, its uploaded logo and its display name.
 * Everything printed comes from `evidence`, which the seal also anchors in the audit trail.
 */
export async function drawCertificate(pdfDoc: PDFDocument, options: CertificateOptions): Promise<void> {
  const regular = await pdfDoc.embedFont(StandardFonts.Helvetica);
  const bold = await pdfDoc.embedFont(StandardFonts.HelveticaBold);
  const mono = await pdfDoc.embedFont(StandardFonts.Courier);
  const { evidence } = options;
  const { signing } = evidence;
  const w = new Writer(pdfDoc, regular);
  const { branding } = evidence;

  w.band(hexColor(branding.color));
  if (branding.logo) w.image(await embedLogo(pdfDoc, branding.logo), LOGO_BOX);
  w.line("Certificate of completion", { font: bold, size: 18 });
  w.line(`For ${branding.displayName} · sealed ${formatSealTime(options.sealedAt)} by Closing & Signing`, { color: MUTED, size: 9 });
  w.gap(10);

  w.heading("Package", bold);
  w.pair("Title", signing.title);
  w.pair("Package ID", signing.id);
  w.pair("Organization", branding.displayName === evidence.organizationName ? evidence.organizationName : `${branding.displayName} (${evidence.organizationName})`);
  if (signing.sentAt) w.pair("Sent", formatSealTime(signing.sentAt));
  if (signing.completedAt) w.pair("Completed", formatSealTime(signing.completedAt));

  w.heading("Documents (SHA-256 before signing)", bold);
  for (const document of evidence.documents) {
    const mark = document.id === options.documentId ? " (this document)" : "";
    w.line(`${document.name}${mark} · ${document.pageCount} page${document.pageCount === 1 ? "" : "s"}`, { font: bold, size: 9.5 });
    w.line(document.sha256, { font: mono, size: 8.5 });
    w.line(`Execution: ${EXECUTION_MODE_TEXT[document.executionMode]}`, { size: 9, indent: 12 });
    if (document.transferable) {
      w.line(`Transferable record: its sealed PDF is the single authoritative copy, under the control of ${evidence.organizationName} at sealing.`, { size: 9, indent: 12, font: bold });
      const authoritative = options.authoritativeCopies?.[document.id];
      if (authoritative) {
        w.line("Authoritative copy SHA-256:", { size: 9, indent: 12 });
        w.line(authoritative, { size: 8.5, indent: 24, font: mono });
      } else if (document.id === options.documentId) {
        w.line("This sealed file is that authoritative copy; any other rendering is marked COPY.", { size: 9, indent: 12 });
      }
      w.line(`Current controller and control history: ${options.verifyUrl}`, { size: 9, indent: 12, color: MUTED });
    }
    const scan = evidence.scans.find((s) => s.documentId === document.id);
    if (scan) {
      const reviewer = scan.reviewerName ? `${scan.reviewerName} <${scan.reviewerEmail}>` : "a former member";
      w.line(`Scan of ${scan.pageCount} page${scan.pageCount === 1 ? "" : "s"} accepted by ${reviewer}${scan.reviewedAt ? ` ${formatSealTime(scan.reviewedAt)}` : ""}`, { size: 9, indent: 12 });
      w.line(`Scan SHA-256: ${scan.sha256}`, { size: 8, indent: 24, color: MUTED, font: mono });
    }
    for (const receipt of evidence.acknowledgments.filter((a) => a.documentId === document.id)) {
      const signer = evidence.signers.find((s) => s.id === receipt.signerId);
      const who = signer ? `${signer.name} <${signer.email}>` : "a signer no longer on the package";
      w.line(`Receipt confirmed by ${who} ${formatSealTime(receipt.acknowledgedAt)}`, { size: 9, indent: 12 });
    }
  }

  w.heading("Signers", bold);
  for (const signer of evidence.signers) {
    w.ensure(90);
    w.line(`${signer.name} <${signer.email}>`, { font: bold, size: 10.5 });
    w.pair("Role", `${signer.role === "co_signer" ? "Co-signer" : "Signer"}, routing order ${signer.routingOrder}`);
    w.pair("Consent to sign electronically", signer.consentedAt ? formatSealTime(signer.consentedAt) : "not recorded");
    if (signer.consentDisclosure) w.pair("Disclosure agreed to", disclosureLine(signer.consentDisclosure));
    w.pair("Identity verified by", signer.authPassedMethod ? AUTH_METHOD_LABELS[signer.authPassedMethod] : "signed-in account");
    for (const hosted of signer.inPerson) {
      const id = `${IDENTIFICATION_LABELS[hosted.idType as keyof typeof IDENTIFICATION_LABELS] ?? hosted.idType}, ${hosted.idIssuer}, ending ${hosted.idLastFour}`;
      w.line(`Signed in person, hosted by ${hosted.hostName} <${hosted.hostEmail}> from ${formatSealTime(hosted.startedAt)}; identification checked: ${id}`, {
        size: 9,
        indent: 12,
      });
    }
    for (const session of signer.embedded) {
      const issuer = session.issuedBy ? `; URL issued by ${session.issuedBy.name ? `${session.issuedBy.name} <${session.issuedBy.email}>` : session.issuedBy.email}` : "";
      w.line(`Signed in an embedded session inside the lender's site (${session.origins.join(", ") || "origin not recorded"}) from ${formatSealTime(session.startedAt)}${issuer}`, {
        size: 9,
        indent: 12,
      });
    }
    w.pair("Viewed", signer.viewedAt ? formatSealTime(signer.viewedAt) : "not recorded");
    w.pair("Signed", signer.signedAt ? formatSealTime(signer.signedAt) : signer.status);
    for (const signature of evidence.signatures.filter((s) => s.signerId === signer.id)) {
      const document = evidence.documents.find((d) => d.id === signature.documentId);
      w.line(`Signed "${document?.name ?? signature.documentId}" ${formatSealTime(signature.createdAt)} (${signature.kind})`, { size: 9, indent: 12 });
      w.line(`IP ${signature.ipAddress ?? "not recorded"} · ${signature.userAgent ?? "user agent not recorded"}`, { size: 8, indent: 24, color: MUTED });
      w.line(`Document SHA-256 attested: ${signature.documentSha256}`, { size: 8, indent: 24, color: MUTED, font: mono });
    }
    w.gap(6);
  }

  if (evidence.attachments.length > 0) {
    w.heading("Attachments from signers (SHA-256 of each file as kept)", bold);
    w.line(
      options.documentId
        ? "Accepted attachments are sealed in the package's certificate file, after its certificate pages."
        : "Accepted attachments follow this certificate, in this order.",
      { size: 9, color: MUTED },
    );
    for (const attachment of evidence.attachments) {
      w.ensure(48);
      const signer = evidence.signers.find((s) => s.id === attachment.signerId);
      const reviewer = attachment.reviewerName ? `${attachment.reviewerName} <${attachment.reviewerEmail}>` : "a former member";
      w.line(`${attachment.requestName} · ${attachment.fileName} · ${attachment.pageCount} page${attachment.pageCount === 1 ? "" : "s"}`, { font: bold, size: 9.5 });
      w.line(attachment.sha256, { font: mono, size: 8.5 });
      w.line(`Sent by ${signer ? `${signer.name} <${signer.email}>` : "a signer no longer on the package"}; accepted by ${reviewer}${attachment.reviewedAt ? ` ${formatSealTime(attachment.reviewedAt)}` : ""}`, {
        size: 9,
        indent: 12,
      });
    }
  }

  w.heading("Audit trail", bold);
  w.line("Hash of the audit trail's last entry when the package completed (SHA-256 chain; the seal's own entry follows it):", { size: 9 });
  w.line(evidence.auditHeadHash ?? "none", { font: mono, size: 8.5 });
  w.gap(8);
  w.line(`This file is digitally signed. Any PDF reader shows whether it changed after sealing; ${options.verifyUrl} tells whether we sealed it.`, {
    size: 8.5,
    color: MUTED,
  });
}

/** The logo as stored (checked PNG or JPEG when uploaded). */
function embedLogo(pdfDoc: PDFDocument, logo: NonNullable<SealEvidence["branding"]["logo"]>): Promise<PDFImage> {
  return logo.contentType === "image/png" ? pdfDoc.embedPng(logo.bytes) : pdfDoc.embedJpg(logo.bytes);
}

function hexColor(hex: string): ReturnType<typeof rgb> {
  const value = /^#[0-9a-f]{6}$/i.test(hex) ? Number.parseInt(hex.slice(1), 16) : 0x1d4ed8;
  return rgb(((value >> 16) & 0xff) / 255, ((value >> 8) & 0xff) / 255, (value & 0xff) / 255);
}

type LineOptions = { font?: PDFFont; size?: number; color?: ReturnType<typeof rgb>; indent?: number };

/** A top-to-bottom text cursor that wraps long lines and starts new pages. */
class Writer {
  private page: PDFPage;
  private y = 0;

  constructor(
    private readonly pdfDoc: PDFDocument,
    private readonly font: PDFFont,
  ) {
    this.page = this.newPage();
  }

  private newPage(): PDFPage {
    this.page = this.pdfDoc.addPage([PAGE.width, PAGE.height]);
    this.y = PAGE.height - PAGE.margin;
    return this.page;
  }

  ensure(height: number) {
    if (this.y - height < PAGE.margin) this.newPage();
  }

  gap(points: number) {
    this.y -= points;
  }

  /** A thin band of `color` across the top edge of the current page. */
  band(color: ReturnType<typeof rgb>) {
    this.page.drawRectangle({ x: 0, y: PAGE.height - 10, width: PAGE.width, height: 10, color });
  }

  /** `image` scaled down (never up) to fit `box`, at the left margin, followed by a small gap. */
  image(image: PDFImage, box: { width: number; height: number }) {
    const scale = Math.min(1, box.width / image.width, box.height / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    this.ensure(height + 8);
    this.y -= height;
    this.page.drawImage(image, { x: PAGE.margin, y: this.y, width, height });
    this.gap(8);
  }

  heading(text: string, bold: PDFFont) {
    this.ensure(48);
    this.gap(8);
    this.page.drawLine({ start: { x: PAGE.margin, y: this.y }, end: { x: PAGE.width - PAGE.margin, y: this.y }, thickness: 0.5, color: RULE });
    this.gap(16);
    this.line(text, { font: bold, size: 12 });
    this.gap(2);
  }

  pair(label: string, value: string) {
    this.line(`${label}: ${value}`, { size: 9.5 });
  }

  line(text: string, options: LineOptions = {}) {
    const font = options.font ?? this.font;
    const size = options.size ?? 10;
    const x = PAGE.margin + (options.indent ?? 0);
    const maxWidth = PAGE.width - PAGE.margin - x;
    for (const part of wrap(toPdfText(text), font, size, maxWidth)) {
      this.ensure(size * 1.35);
      this.y -= size * 1.35;
      this.page.drawText(part, { x, y: this.y, size, font, color: options.color ?? TEXT });
    }
  }
}

function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const lines: string[] = [];
  let current = "";
  for (const word of text.split(/(?<=\s)|(?=\s)/)) {
    const candidate = current + word;
    if (font.widthOfTextAtSize(candidate, size) <= maxWidth || current === "") {
      current = candidate;
      // A single word wider than the line (a hash, a long user agent) is cut by characters.
      while (font.widthOfTextAtSize(current, size) > maxWidth && current.length > 1) {
        let cut = current.length - 1;
        while (cut > 1 && font.widthOfTextAtSize(current.slice(0, cut), size) > maxWidth) cut--;
        lines.push(current.slice(0, cut));
        current = current.slice(cut);
      }
    } else {
      lines.push(current.trimEnd());
      current = word.trimStart();
    }
  }
  if (current.trim()) lines.push(current.trimEnd());
  return lines.length > 0 ? lines : [""];
}

const LANGUAGE_NAMES: Record<string, string> = { en: "English", es: "Spanish" };

/** "version 2025-01, in Spanish": which text of the electronic-records disclosure the signer accepted. */
export function disclosureLine(disclosure: { version: string | null; language: string | null }): string {
  const version = disclosure.version ? `version ${disclosure.version}` : "version not recorded";
  const language = disclosure.language ? `in ${LANGUAGE_NAMES[disclosure.language] ?? disclosure.language}` : "language not recorded";
  return `${version}, ${language}`;
}
