/** The connector contract, run against every connector the gateway ships. */
import { randomBytes } from 'node:crypto';
import type { PaymentInstrument } from '../../src/application/ports/connector';
import { SandboxConnector } from '../../src/adapters/connectors/sandbox';
import { SandboxApmConnector } from '../../src/adapters/connectors/sandbox-apm';
import { notificationStatus, payerReturnUrl, signNotification } from '../../src/adapters/connectors/sandbox-apm/transformers';
import { SandboxBConnector } from '../../src/adapters/connectors/sandbox-b';
import { SandboxWalletConnector } from '../../src/adapters/connectors/sandbox-wallet';
import { connectorContract } from './contract';

const card = (expMonth: string, expYear = '2038'): PaymentInstrument => ({ kind: 'card', card: { number: '4111111111111111', expMonth, expYear, cvv: '123' } });

connectorContract('sandbox', {
  create: () => new SandboxConnector({ secret: randomBytes(32), simulatorBaseUrl: 'https://gateway.test' }),
  instruments: { success: card('01'), declined: card('02'), payerStep: card('05') },
  payerReturn: (redirect, approved) => ({ query: {}, body: { PaReq: redirect.params.PaReq!, MD: redirect.params.MD!, PaRes: approved ? 'approve' : 'decline' } }),
});

connectorContract('sandbox-b', {
  create: () => new SandboxBConnector(),
  instruments: { success: card('01'), declined: card('02'), softDecline: card('04') },
});

const apmSecret = randomBytes(32);
const method = (id: string, identifier: string, parameters: Record<string, unknown> = {}): PaymentInstrument => ({ kind: 'method', method: id, parameters, identifier });

connectorContract('sandbox-apm', {
  create: () => new SandboxApmConnector({ secret: apmSecret, simulatorBaseUrl: 'https://gateway.test' }),
  instruments: {
    success: method('sb-redirect', 'success@gmail.com'),
    declined: method('sb-redirect', 'fail@gmail.com'),
    payerStep: method('sb-redirect', 'payer-7'),
    pending: method('sb-app', 'payer-8'),
  },
  // What the provider page sends the payer back with: its signed decision, in the return link's query.
  payerReturn: (redirect, approved) => {
    const page = new URL(redirect.url);
    const paymentId = decodeURIComponent(page.pathname.split('/').pop()!);
    const back = new URL(payerReturnUrl(apmSecret, page.searchParams.get('return')!, paymentId, approved ? 'approve' : 'decline'));
    return { query: Object.fromEntries(back.searchParams), body: {} };
  },
  notification: (paymentId, reference, approved) =>
    signNotification(apmSecret, { paymentId, reference, status: notificationStatus('plain', approved ? 'approve' : 'decline') }, 1_750_000_000),
});

/** A token of the wallet's shape: the wallet provider decrypts it itself, the sandbox reads its shape only. */
const GOOGLE_TOKEN = JSON.stringify({
  protocolVersion: 'ECv2',
  signature: 'MEUCIQ==',
  intermediateSigningKey: { signedKey: '{"keyValue":"k","keyExpiration":"1"}', signatures: ['MEUCIQ=='] },
  signedMessage: '{"encryptedMessage":"e","ephemeralPublicKey":"p","tag":"t"}',
});
const walletToken = (identifier: string): PaymentInstrument => ({ kind: 'wallet_token', wallet: 'googlepay', token: GOOGLE_TOKEN, identifier });

connectorContract('sandbox-wallet', {
  create: () => new SandboxWalletConnector(),
  instruments: { success: walletToken('payer-1'), declined: walletToken('fail@gmail.com') },
});
