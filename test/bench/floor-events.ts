/**
 * What both floor servers store and check per SALE, so the two differ only in how they commit.
 */

/** The password the bench signs floor SALEs with (the floors stand in for the demo merchant). */
export const BENCH_MERCHANT_PASSWORD = '0'.repeat(32);
/** The client key of the same stand-in merchant: the format of the demo merchant's. */
export const BENCH_MERCHANT_CLIENT_KEY = `test_ck_${'0'.repeat(32)}`;

/** A PaymentInitiated of a sandbox card SALE, at its real size (about 800 bytes of JSON). */
export function initiatedEventData(paymentId: string, body: Record<string, string>, now: string) {
  return {
    amount: 1000,
    amountText: '10.00',
    card: { brand: 'VISA', expMonth: '01', expYear: '2038', mask: '411111******1111', token: null },
    cardSource: 'card_number',
    channel: 's2s_card',
    connector: 'sandbox',
    currency: 'USD',
    customData: null,
    initiatedAt: now,
    kind: 'sale',
    merchantId: 'm1',
    notificationUrl: null,
    orderDescription: body.order_description ?? null,
    orderId: body.order_id,
    payer: {
      address: body.payer_address, city: body.payer_city, country: body.payer_country, email: body.payer_email, firstName: body.payer_first_name,
      ip: body.payer_ip, lastName: body.payer_last_name, phone: body.payer_phone, state: body.payer_state, zip: body.payer_zip,
    },
    paymentId,
    recurringInit: false,
    termUrl3ds: body.term_url_3ds ?? null,
  };
}
