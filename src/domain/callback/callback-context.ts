import type { ProtocolMapping } from '../merchant/protocol-mapping';

/** What a callback needs of its merchant besides the payment. */
export interface CallbackContext {
  /** Merchant password: hash input, never sent. */
  password: string;
  /** The merchant's switches for optional fields. */
  protocolMapping: ProtocolMapping;
}
