import type { AdoptedSignature } from "./adopted-signature";
import { SIGNATURE_FONT_STYLES } from "./signature-font-styles";

/** The adopted signature exactly as it is sent with each document: the typed text in its font, or the drawn image. */
export function SignaturePreview({ signature, label }: { signature: AdoptedSignature; label: string }) {
  if (signature.kind === "drawn") {
    // A data: URL from the pad; next/image has nothing to optimise here.
    // eslint-disable-next-line @next/next/no-img-element
    return <img src={signature.imageDataUrl} alt={label} className="h-16 max-w-full object-contain object-left" />;
  }
  return (
    <p aria-label={label} role="img" className="truncate text-4xl leading-tight text-slate-950" style={{ fontFamily: SIGNATURE_FONT_STYLES[signature.font].fontFamily }}>
      {signature.text}
    </p>
  );
}
