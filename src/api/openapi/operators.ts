/**
 * The operators' side of the document: the admin API (bearer admin token), `/health`, `/metrics`,
 * the front door and this document itself. Admin query parameters are read by code in each route
 * (src/api/admin/*); the limits here are the ones those routes check.
 */

const uuidPath = (name: string, description: string) => ({ name, in: 'path', required: true, schema: { type: 'string', format: 'uuid' }, description });

const adminErrors = {
  '400': { $ref: '#/components/responses/Invalid' },
  '401': { $ref: '#/components/responses/AdminTokenInvalid' },
  '429': { $ref: '#/components/responses/TooManyFailures' },
};

const json = (schema: Record<string, unknown>, description = 'OK') => ({ description, content: { 'application/json': { schema } } });

const delivery = {
  type: 'object',
  properties: {
    delivery_id: { type: 'string', format: 'uuid' },
    payment_id: { type: 'string', format: 'uuid' },
    merchant_id: { type: 'string', format: 'uuid' },
    source_event_type: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'string', enum: ['pending', 'in_flight', 'delivered', 'failed'] },
    attempts: { type: 'integer' },
    next_attempt_at: { type: ['string', 'null'], format: 'date-time' },
    lease_until: { type: ['string', 'null'], format: 'date-time' },
    last_status_code: { type: ['integer', 'null'] },
    last_error: { type: ['string', 'null'] },
    scheduled_at: { type: 'string', format: 'date-time' },
    delivered_at: { type: ['string', 'null'], format: 'date-time' },
    updated_at: { type: 'string', format: 'date-time' },
  },
};

/** A signed checkpoint as served, kept and given to `audit consistency` (docs/audit.md). */
const signedCheckpoint = {
  type: 'object',
  required: ['format', 'checkpoint_text', 'signature', 'public_key'],
  properties: {
    format: { const: 'signed-checkpoint/1' },
    checkpoint_text: { type: 'string' },
    signature: { type: 'string' },
    public_key: { type: 'string' },
  },
};

const admin = (summary: string, description: string, extra: Record<string, unknown>) => ({
  tags: ['Admin'],
  summary,
  description,
  security: [{ adminToken: [] }],
  ...extra,
});

export const OPERATOR_PATHS: Record<string, unknown> = {
  '/': {
    get: {
      operationId: 'frontDoor',
      tags: ['Gateway'],
      summary: 'What this is and where everything is',
      description: 'A page for people; JSON with Accept: application/json.',
      responses: {
        '200': {
          description: 'The links',
          content: {
            'text/html': { schema: { type: 'string' } },
            'application/json': { schema: { type: 'object', properties: { name: { type: 'string' }, environment: { type: 'string' }, links: { type: 'object' } } } },
          },
        },
      },
    },
  },
  '/health': {
    get: {
      operationId: 'health',
      tags: ['Gateway'],
      summary: 'Event store and read models',
      description: 'For load balancers and monitors: 503 while the event store cannot be reached; degraded while the read models cannot.',
      responses: {
        '200': json({
          type: 'object',
          properties: {
            status: { type: 'string', enum: ['ok', 'degraded'] },
            event_store_head: { type: ['string', 'null'] },
            projection_lag: { type: 'object', additionalProperties: { type: 'integer' } },
            sandbox_clock: { type: 'object' },
          },
        }),
        '503': json({ type: 'object', properties: { status: { const: 'unavailable' } } }, 'The event store cannot be reached'),
      },
    },
  },
  '/audit/key': {
    get: {
      operationId: 'auditKey',
      tags: ['Gateway'],
      summary: 'The public key that signs audit checkpoints',
      description: 'Ed25519, PEM (SPKI); X-Key-Id is its hex SHA-256 (SPKI DER), the `key` line of every checkpoint it signs. Public: no credentials. docs/audit.md.',
      responses: { '200': { description: 'The key', content: { 'application/x-pem-file': { schema: { type: 'string' } } } } },
    },
  },
  '/audit/checkpoints/latest': {
    get: {
      operationId: 'auditLatestCheckpoint',
      tags: ['Gateway'],
      summary: 'The newest signed audit checkpoint',
      description: 'For auditors to poll and keep: checkpoint_text is the exact signed text (tree size, Merkle root, position, time), signature its Ed25519 signature in base64. Public: no credentials. docs/audit.md.',
      responses: {
        '200': json(signedCheckpoint),
        '404': json({ type: 'object', properties: { result: { const: 'ERROR' }, error_code: { const: 'no_checkpoint' }, error_message: { type: 'string' } } }, 'No signed checkpoint yet'),
      },
    },
  },
  '/audit/checkpoints': {
    get: {
      operationId: 'auditCheckpoints',
      tags: ['Gateway'],
      summary: 'Every signed audit checkpoint, a page at a time',
      description:
        'Oldest first, those whose signed position is after `after`: poll with the `next_after` of the previous answer to keep every checkpoint, not only the newest. Each is as /audit/checkpoints/latest serves it. Public: no credentials. docs/audit.md.',
      parameters: [
        { name: 'after', in: 'query', schema: { type: 'string', pattern: '^(0|[1-9][0-9]{0,18})$' }, description: 'A position (the `position` line of a checkpoint kept); omitted, from the first checkpoint' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
      ],
      responses: {
        '200': json({
          type: 'object',
          required: ['checkpoints', 'has_more', 'next_after'],
          properties: {
            checkpoints: { type: 'array', items: signedCheckpoint },
            has_more: { type: 'boolean', description: 'More checkpoints follow the last of this page' },
            next_after: { type: ['string', 'null'], description: 'The `after` of the next request: the position of the last checkpoint here, else the `after` given' },
          },
        }),
        '400': { $ref: '#/components/responses/Invalid' },
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      tags: ['Gateway'],
      summary: 'Prometheus metrics of this process',
      description: 'Behind METRICS_TOKEN (or the admin token while none is set); with METRICS_PORT served on that port instead. docs/operations.md lists the metrics.',
      security: [{ metricsToken: [] }],
      responses: {
        '200': { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: { type: 'string' } } } },
        '401': { $ref: '#/components/responses/Unauthorized' },
        '429': { $ref: '#/components/responses/TooManyFailures' },
      },
    },
  },
  '/openapi.json': {
    get: {
      operationId: 'openApiDocument',
      tags: ['Gateway'],
      summary: 'This document',
      responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1') },
    },
  },
  '/admin/callbacks': {
    get: admin('List callback deliveries', 'Newest first.', {
      operationId: 'adminListCallbacks',
      parameters: [
        { name: 'payment_id', in: 'query', schema: { type: 'string', format: 'uuid' } },
        { name: 'merchant_id', in: 'query', schema: { type: 'string', format: 'uuid' } },
        { name: 'failed', in: 'query', schema: { type: 'string', enum: ['true', 'false'] }, description: 'Only failed ones or those whose last attempt failed' },
        { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 1000, default: 100 } },
      ],
      responses: { '200': json({ type: 'object', properties: { deliveries: { type: 'array', items: delivery } } }), ...adminErrors },
    }),
  },
  '/admin/callbacks/{id}': {
    get: admin('One callback delivery', 'With the exact body sent and every attempt.', {
      operationId: 'adminCallback',
      parameters: [uuidPath('id', 'The delivery id (X-Delivery-Id)')],
      responses: {
        '200': json({ allOf: [delivery, { type: 'object', properties: { body: { type: 'string' }, attempts: { type: 'array', items: { type: 'object' } } } }] }),
        '404': { $ref: '#/components/responses/NotFound' },
        ...adminErrors,
      },
    }),
  },
  '/admin/callbacks/{id}/redeliver': {
    post: admin('Send a callback again', 'Starts a fresh round of the retry schedule and sends at once.', {
      operationId: 'adminRedeliver',
      parameters: [uuidPath('id', 'The delivery id')],
      responses: {
        '200': json({
          type: 'object',
          properties: {
            delivery_id: { type: 'string', format: 'uuid' },
            status: { type: 'string' },
            attempts: { type: 'integer' },
            last_status_code: { type: ['integer', 'null'] },
            last_error: { type: ['string', 'null'] },
            next_attempt_at: { type: ['string', 'null'] },
          },
        }),
        '404': { $ref: '#/components/responses/NotFound' },
        '409': json({ $ref: '#/components/schemas/Error' }, 'An attempt is in progress'),
        ...adminErrors,
      },
    }),
  },
  '/admin/ledger/balances': {
    get: admin('Ledger balances', 'Per merchant, currency and account, from postings dated at or before as_of.', {
      operationId: 'adminLedgerBalances',
      parameters: [
        { name: 'merchant_id', in: 'query', schema: { type: 'string', maxLength: 64 } },
        { name: 'currency', in: 'query', schema: { type: 'string', pattern: '^[A-Z]{3}$' } },
        { name: 'as_of', in: 'query', schema: { type: 'string', format: 'date-time' }, description: 'With a zone; inclusive' },
      ],
      responses: {
        '200': json({
          type: 'object',
          properties: {
            result: { const: 'SUCCESS' },
            as_of: { type: ['string', 'null'] },
            balances: {
              type: 'array',
              items: {
                type: 'object',
                properties: { merchant_id: { type: 'string' }, currency: { type: 'string' }, account: { type: 'string' }, balance: { type: 'integer' }, balance_text: { type: 'string' } },
              },
            },
          },
        }),
        ...adminErrors,
      },
    }),
  },
  '/admin/payments/{id}/history': {
    get: admin("A payment's events", 'Every event of its stream as stored, and its state folded up to as_of.', {
      operationId: 'adminPaymentHistory',
      parameters: [
        uuidPath('id', 'The payment id (trans_id)'),
        { name: 'as_of', in: 'query', schema: { type: 'string' }, description: 'A stream version (0, 1, …) or an ISO-8601 timestamp with a zone' },
      ],
      responses: { '200': json({ type: 'object', properties: { payment_id: { type: 'string' }, events: { type: 'array', items: { type: 'object' } }, state: { type: ['object', 'null'] } } }), '404': { $ref: '#/components/responses/NotFound' }, ...adminErrors },
    }),
  },
  '/admin/chains/{id}': {
    get: admin('A recurring chain explained', 'Its schedule and every due date with what became of it.', {
      operationId: 'adminChain',
      parameters: [uuidPath('id', 'The payment that started the schedule')],
      responses: { '200': json({ type: 'object' }), '404': { $ref: '#/components/responses/NotFound' }, ...adminErrors },
    }),
  },
  '/admin/clock': {
    get: admin("The sandbox test clock", "The gateway's now and how far it runs ahead of real time; 403 in production.", {
      operationId: 'adminClock',
      responses: { '200': json({ type: 'object', properties: { result: { const: 'SUCCESS' }, now: { type: 'string', format: 'date-time' }, offset_ms: { type: 'integer' } } }), '403': { $ref: '#/components/responses/Forbidden' }, ...adminErrors },
    }),
  },
  '/admin/clock/advance': {
    post: admin('Move the sandbox clock forward', 'The scheduler makes every automatic payment due on the way, date by date.', {
      operationId: 'adminClockAdvance',
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['by'], properties: { by: { type: 'string', examples: ['30d', '12h', '2w'] } } } } } },
      responses: { '200': json({ type: 'object' }), '403': { $ref: '#/components/responses/Forbidden' }, ...adminErrors },
    }),
  },
  '/admin/clock/reset': {
    post: admin('Put the sandbox clock back on real time', '', {
      operationId: 'adminClockReset',
      responses: { '200': json({ type: 'object' }), '403': { $ref: '#/components/responses/Forbidden' }, ...adminErrors },
    }),
  },
};
