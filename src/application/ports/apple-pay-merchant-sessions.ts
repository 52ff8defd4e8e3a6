/**
 * Apple Pay's merchant validation as the use cases see it: one mutual-TLS request to Apple's
 * Payment Session endpoint, presenting the merchant identity certificate, whose answer (an opaque
 * merchant session) the payer's device needs before it shows its sheet.
 */

export interface MerchantSessionRequest {
  /** The merchant identity certificate (PEM) and its private key (PEM), presented as the TLS client. */
  certificatePem: string;
  privateKeyPem: string;
  /** Apple's request body: `merchantIdentifier`, `displayName`, `initiative`, `initiativeContext`. */
  body: { merchantIdentifier: string; displayName: string; initiative: 'web'; initiativeContext: string };
}

export type MerchantSessionAnswer =
  | { ok: true; merchantSession: Record<string, unknown> }
  /** Why not, for the operator's log: never shown to a payer. */
  | { ok: false; reason: string };

export interface ApplePayMerchantSessions {
  start(request: MerchantSessionRequest): Promise<MerchantSessionAnswer>;
}
