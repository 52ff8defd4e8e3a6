/** Keeps merchant passwords encrypted at rest (in events and read models) yet usable as hash input. */
export interface SecretCipher {
  encrypt(plaintext: string): string;
  decrypt(ciphertext: string): string;
}
