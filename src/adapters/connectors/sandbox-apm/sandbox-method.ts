/** What a sandbox method is, beside the fields it takes: how its simulated provider behaves (catalogue.ts). */
import type { MethodDescription } from '../../../domain/payment/method-fields';

export type SandboxFlow = 'redirect' | 'qr' | 'app';
export type SandboxPage = 'plain' | 'qr' | 'otp' | 'details' | 'crypto';
export type NotificationVocabulary = 'qr' | 'bank' | 'plain';

export interface SandboxMethod extends MethodDescription {
  flow: SandboxFlow;
  page: SandboxPage;
  vocabulary: NotificationVocabulary;
}
