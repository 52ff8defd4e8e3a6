/** Where a merchant and the deployment run: the sandbox takes test payments, production real ones. */
export type Environment = 'sandbox' | 'production';
