/**
 * Shapes of the hosted payment fields requests, compiled once. Unknown keys are ignored rather
 * than refused: merchants' code sends more than the table lists, and nothing unlisted is used.
 */
const text = (maxLength: number) => ({ type: 'string', maxLength });
/** Browsers report these as numbers; merchants' servers often forward them as strings. */
const integerLike = (minimum: number, maximum: number) => ({ type: ['integer', 'string'], minimum, maximum, pattern: '^-?[0-9]{1,6}$' });
const flag = { type: ['boolean', 'string'], pattern: '^(true|false)$' };

export const processingSchema = {
  type: 'object',
  required: ['name', 'with_hosted_fields'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 255 },
    with_hosted_fields: { type: 'boolean', enum: [true] },
    billing_address: {
      type: 'object',
      properties: {
        country: { type: 'string', pattern: '^[A-Za-z]{2}$' },
        state: text(64),
        city: text(64),
        address: text(255),
        zip: text(32),
        phone: text(32),
        district: text(64),
        house_number: text(32),
      },
    },
    browser_info: {
      type: 'object',
      properties: {
        color_depth: integerLike(1, 64),
        java_enabled: flag,
        java_script_enabled: flag,
        language: { type: 'string', maxLength: 35 },
        screen_height: integerLike(1, 100_000),
        screen_width: integerLike(1, 100_000),
        // Minutes, as Date#getTimezoneOffset gives them: UTC+14 is -840, UTC-12 is 720.
        time_zone_offset: integerLike(-840, 720),
        user_agent: text(1024),
        platform: text(64),
        accept_header: text(1024),
      },
    },
    email: { type: 'string', maxLength: 256, format: 'email' },
    birth_day: { type: 'string', format: 'date' },
    selected_language: { type: 'string', maxLength: 16, pattern: '^[A-Za-z]{2,8}([-_][A-Za-z0-9]{1,8}){0,3}$' },
  },
};

/** What the card frame posts; the values themselves are judged by CheckoutService. */
export const cardDataSchema = {
  type: 'object',
  required: ['token', 'number', 'expiry', 'cvv'],
  properties: {
    token: text(200),
    number: text(32),
    expiry: text(16),
    cvv: text(8),
  },
};
