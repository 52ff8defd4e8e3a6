/** The keys a merchant's wallet tokens are addressed to: Apple Pay's and Google Pay's, each null until set up. */
export interface WalletRecipients {
  recipients(merchantId: string): Promise<{
    apple: { merchantIdentifier: string; processingPublicKey: string } | null;
    google: { recipientId: string; gatewayMerchantId: string | null; publicKey: string } | null;
  }>;
}
