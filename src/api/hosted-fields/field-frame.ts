/**
 * The page inside each hosted field iframe: one input, nothing else. Its script and stylesheet are
 * served from the gateway (frame-script.ts) because its CSP allows no inline code, and the only
 * place it may connect to is the gateway itself.
 */
import { htmlDocument } from '../html/document';
import { escapeHtml } from '../html/page-kit';

export const FRAME_PATH = '/hosted-fields/frame';
export const FRAME_SCRIPT_PATH = '/hosted-fields/frame.js';
export const FRAME_STYLE_PATH = '/hosted-fields/frame.css';
export const CARD_DATA_PATH = '/hosted-fields/card-data';
/** Marks the messages of the SDK and its frames, so other messages on the page are ignored. */
export const MESSAGE_SOURCE = 'hosted-fields';

export type FieldName = 'card' | 'expiry' | 'cvv';
export const FIELD_NAMES: readonly FieldName[] = ['card', 'expiry', 'cvv'];

/** Any merchant may embed the frames; nothing in them loads from or talks to anywhere else. */
export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

interface FieldSpec {
  label: string;
  autocomplete: string;
  name: string;
  placeholder: string;
  maxLength: number;
}

const FIELDS: Record<FieldName, FieldSpec> = {
  card: { label: 'Card number', autocomplete: 'cc-number', name: 'cardnumber', placeholder: '1234 1234 1234 1234', maxLength: 23 },
  expiry: { label: 'Expiry date (MM / YY)', autocomplete: 'cc-exp', name: 'exp-date', placeholder: 'MM / YY', maxLength: 7 },
  cvv: { label: 'Security code', autocomplete: 'cc-csc', name: 'cvc', placeholder: 'CVV', maxLength: 4 },
};

export const isFieldName = (value: unknown): value is FieldName => typeof value === 'string' && (FIELD_NAMES as readonly string[]).includes(value);

export function renderFieldFrame(field: FieldName, placeholder?: string): string {
  const spec = FIELDS[field];
  const shown = placeholder !== undefined ? placeholder.slice(0, 64) : spec.placeholder;
  return htmlDocument(
    { title: spec.label, robots: 'noindex', stylesheets: [FRAME_STYLE_PATH] },
    `<input id="field" name="${spec.name}" type="text" inputmode="numeric" autocomplete="${spec.autocomplete}" autocorrect="off" spellcheck="false" maxlength="${spec.maxLength}" aria-label="${escapeHtml(spec.label)}" aria-invalid="false" placeholder="${escapeHtml(shown)}">
<script src="${FRAME_SCRIPT_PATH}"></script>`,
  );
}

/** The frame's default look; the merchant's style (configure message) is applied over it. */
export const FRAME_CSS = `html, body { margin: 0; padding: 0; background: transparent; overflow: hidden; }
input { box-sizing: border-box; display: block; width: 100%; height: 2.75rem; margin: 0;
        padding: 0.5rem 0.75rem; font: 16px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
        color: #1b1f24; background-color: #ffffff; border: 1px solid #8c959f; border-radius: 6px;
        outline: none; appearance: none; }
input::placeholder { color: #6e7781; opacity: 1; }
input:focus { border-color: #0b5cad; outline: 2px solid #0b5cad; outline-offset: -2px; }
input.invalid { border-color: #b42318; }
input.invalid:focus { outline-color: #b42318; }
`;
