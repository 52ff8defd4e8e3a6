/** One field of the card form: its label, hint, control and error, and how a refusal points at it. */
import type { FieldName, FieldProblem } from '../../application/checkout/checkout-service';
import { escapeHtml } from '../html/page-kit';
import { fieldProblemText } from './messages';

/** What the payer typed that may be shown again. */
export interface KeptValues {
  card_expiry?: string;
  card_holder?: string;
  billing_country?: string;
  billing_state?: string;
}

/** The form's fields, top to bottom: the order the problem summary lists them in. */
export const FIELD_ORDER: readonly FieldName[] = ['card_number', 'card_expiry', 'card_cvv', 'card_holder', 'billing_country', 'billing_state'];

/** A refused submit's problems, field by field: the words under each, and the first one's field takes the focus. */
export interface FieldErrors {
  errorOf(name: FieldName): string | undefined;
  focus(name: FieldName): boolean;
}

export function fieldErrors(problems: readonly FieldProblem[]): FieldErrors {
  const errorOf = (name: FieldName): string | undefined => {
    const problem = problems.find((p) => p.field === name);
    return problem ? fieldProblemText(problem) : undefined;
  };
  const firstProblem = FIELD_ORDER.find((name) => errorOf(name));
  return { errorOf, focus: (name) => firstProblem === name };
}

export interface FieldOptions {
  name: FieldName;
  label: string;
  hint?: string;
  hintId?: string;
  control: string;
  error?: string;
  hidden?: boolean;
  /** Shown at the end of the label's line (the detected card brand). */
  aside?: string;
}

export function field(o: FieldOptions): string {
  const hint = o.hint ? ` <span class="hint" id="${o.hintId ?? `${o.name}-hint`}">${escapeHtml(o.hint)}</span>` : '';
  const classes = ['field', o.error ? 'invalid' : ''].filter(Boolean).join(' ');
  const label = `<label for="${o.name}">${escapeHtml(o.label)}${hint}</label>`;
  return `<div class="${classes}"${o.hidden ? ' hidden' : ''}>
  ${o.aside ? `<div class="label-row">${label}${o.aside}</div>` : label}
  ${o.control}
  <p class="field-error" id="${o.name}-error" aria-live="polite">${escapeHtml(o.error ?? '')}</p>
</div>`;
}

/** Attributes every text input shares: accessible description, error state, focus after a refusal. */
export function inputAttributes(name: FieldName, errors: FieldErrors, described: string[] = []): string {
  const ids = [...described, `${name}-error`].join(' ');
  return `id="${name}" name="${name}" aria-describedby="${ids}"${errors.errorOf(name) ? ' aria-invalid="true"' : ''}${errors.focus(name) ? ' autofocus' : ''}`;
}
