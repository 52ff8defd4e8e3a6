export { SandboxConnector, SANDBOX_CAPABILITIES, type SandboxConnectorOptions } from './connector';
export { SANDBOX_DECLINE_REASONS, SANDBOX_DEFAULT_DESCRIPTOR, sandboxDeclinesStoredCharge, sandboxSupportsRecurring } from './scenarios';
export { sandboxThreeDSResult, signPaReq, verifyPaReq, signRedirect, verifyRedirectSig } from './transformers';
