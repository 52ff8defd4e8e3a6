/**
 * A QR code drawn on the server as SVG, so the hosted page shows it under its strict policy (no
 * script draws it, no style attribute colours it: the SVG's own presentation attributes do).
 */
import qrcode from 'qrcode-generator';

/** The payload text as a scalable SVG (error correction M, a quiet zone of four modules). */
export function qrCodeSvg(payload: string, label: string): string {
  const code = qrcode(0, 'M');
  code.addData(payload, 'Byte');
  code.make();
  return code
    .createSvgTag({ cellSize: 4, margin: 4, scalable: true })
    .replace('<svg ', `<svg role="img" aria-label="${label.replace(/[&<>"]/g, '')}" focusable="false" `);
}

/** The payload of a QR code handed over as Base64 (S2S APM's `qr_code`); null when it is not text. */
export function qrPayloadOf(base64: string): string | null {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) return null;
  const text = Buffer.from(base64, 'base64').toString('utf8');
  return text.length > 0 && !text.includes('\uFFFD') ? text : null;
}
