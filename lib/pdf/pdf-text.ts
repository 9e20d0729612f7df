const WIN_ANSI_EXTRAS = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");

/**
 * Text the standard PDF fonts (WinAnsi) can draw: Latin-1 and the CP1252 extras pass, other
 * characters become "?" and control characters a space, so a name in another script never makes
 * pdf-lib throw mid-seal. The certificate is evidence, not typography; the exact strings stay in the
 * audit trail.
 */
export function toPdfText(value: string): string {
  let out = "";
  for (const ch of value.normalize("NFC")) {
    const code = ch.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code < 0xa0)) out += " ";
    else if (code <= 0xff || WIN_ANSI_EXTRAS.has(ch)) out += ch;
    else out += "?";
  }
  return out;
}
