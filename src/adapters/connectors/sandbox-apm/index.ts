export {
  SandboxApmConnector,
  SANDBOX_APM_CAPABILITIES,
  SANDBOX_APM_DESCRIPTOR,
  SANDBOX_APM_FAIL,
  SANDBOX_APM_NAME,
  SANDBOX_APM_SUCCESS,
  DEFAULT_QR_LIFETIME_SECONDS,
} from './connector';
export { SANDBOX_METHOD_IDS, SANDBOX_OTP, sandboxMethod } from './catalogue';
export type { SandboxMethod } from './sandbox-method';
export { SandboxApmMobileMoneyConnector, SANDBOX_APM_MOBILE_MONEY_CAPABILITIES, SANDBOX_PAYOUT_SETTLE_SECONDS } from './mobile-money-connector';
export { SANDBOX_MOMO_METHOD_IDS, SANDBOX_MOMO_METHODS, SENDER_REFERENCE_MIN_LENGTH } from './momo-catalogue';
