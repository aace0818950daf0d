/** XML text for JUnit reports: escaped, and without the characters XML 1.0 cannot hold at all. */

// C0 controls but tab, LF and CR; U+FFFE/U+FFFF; lone surrogates
const INVALID = /[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** `s` safe inside an XML attribute value or element text: escaped, invalid characters shown as `\uXXXX`. */
export function xmlEscape(s: string): string {
  return s
    .replace(INVALID, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Attribute value: escaped, with line breaks kept as character references so they survive normalisation. */
export function xmlAttr(s: string): string {
  return xmlEscape(s).replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
