/** What the payment use cases refuse with, besides the decider's DomainErrors. */

export class DuplicatePaymentError extends Error {
  constructor() {
    super('order_id: Duplicate payment.');
    this.name = 'DuplicatePaymentError';
  }
}

export class CardTokenNotFoundError extends Error {
  constructor() {
    super('Card token is invalid or not found.');
    this.name = 'CardTokenNotFoundError';
  }
}
