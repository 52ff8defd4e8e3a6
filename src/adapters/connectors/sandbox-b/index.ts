export { SandboxBConnector, SANDBOX_B_CAPABILITIES } from './connector';
export { SANDBOX_B_DECLINE_REASONS, SANDBOX_B_DESCRIPTOR } from './scenarios';
