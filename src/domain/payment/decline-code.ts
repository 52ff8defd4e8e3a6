/**
 * Machine-readable decline codes. The reason stays the human text the merchant is shown; the code
 * is what software (reports, retry rules, the merchant's own dashboards) can branch on without
 * parsing prose. PaymentDeclined records one from schema version 2 on; version 1 events get theirs
 * derived by the same rule when they are read (src/domain/upcasting).
 */

/** Where in a payment's life it was declined: the first thing a decline's code is read from. */
export type DeclineStage = 'authorization' | '3ds' | 'redirect' | 'timeout';

export type DeclineCode =
  | 'do_not_honor'
  | 'insufficient_funds'
  | 'expired_card'
  | 'invalid_card'
  | '3ds_failed'
  | 'redirect_declined'
  | 'payer_cancelled'
  | 'payer_timeout';

/**
 * The code of a decline, from the stage at which it happened and the acquirer's reason. The stage
 * decides first (a payer who never came back is a timeout whatever the text says); within a stage
 * the reason refines it, and an unrecognised reason gets the stage's general code.
 */
export function declineCodeOf(stage: DeclineStage, reason: string): DeclineCode {
  const text = reason.toLowerCase();
  switch (stage) {
    case 'timeout':
      return 'payer_timeout';
    case '3ds':
      return /cancel|by payer/.test(text) ? 'payer_cancelled' : '3ds_failed';
    case 'redirect':
      return /cancel|by payer/.test(text) ? 'payer_cancelled' : 'redirect_declined';
    case 'authorization':
      if (/insufficient|not sufficient/.test(text)) return 'insufficient_funds';
      if (/expired/.test(text)) return 'expired_card';
      if (/not valid|invalid|must be/.test(text)) return 'invalid_card';
      return 'do_not_honor';
    default: {
      const unreachable: never = stage;
      return unreachable;
    }
  }
}
