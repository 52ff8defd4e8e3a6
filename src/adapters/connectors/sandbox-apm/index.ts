export {
  SandboxApmConnector,
  SANDBOX_APM_CAPABILITIES,
  SANDBOX_APM_DESCRIPTOR,
  SANDBOX_APM_FAIL,
  SANDBOX_APM_NAME,
  SANDBOX_APM_SUCCESS,
  DEFAULT_QR_LIFETIME_SECONDS,
} from './connector';
export { SANDBOX_METHOD_IDS, SANDBOX_OTP, sandboxMethod, type SandboxMethod } from './catalogue';
