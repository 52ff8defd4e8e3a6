export { SANDBOX_WALLET_CAPABILITIES, SANDBOX_WALLET_NAME, SandboxWalletConnector } from './connector';
