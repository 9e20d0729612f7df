/**
 * The version of the electronic-records disclosure a signer accepts (the text lives with the page
 * that shows it). The accepted version is kept in the `signer.consented` audit entry, so a changed
 * text gets a new version and old acceptances keep saying which text they were given.
 */
export const ESIGN_DISCLOSURE_VERSION = "2025-01";
