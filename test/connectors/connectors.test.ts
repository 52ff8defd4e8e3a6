/** The connector contract, run against every connector the gateway ships. */
import { randomBytes } from 'node:crypto';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox';
import { SandboxBConnector } from '../../src/adapters/connectors/sandbox-b';
import { connectorContract } from './contract';

const card = (expMonth: string, expYear = '2038') => ({ number: '4111111111111111', expMonth, expYear, cvv: '123' });

connectorContract('sandbox', {
  create: () => new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gateway.test' }),
  cards: { success: card('01'), declined: card('02'), payerStep: card('05') },
  payerReturn: (redirect, approved) => ({ query: {}, body: { PaReq: redirect.params.PaReq!, MD: redirect.params.MD!, PaRes: approved ? 'approve' : 'decline' } }),
});

connectorContract('sandbox-b', {
  create: () => new SandboxBConnector(),
  cards: { success: card('01'), declined: card('02'), softDecline: card('04') },
});
