import { z } from 'zod';

/**
 * The wallet passes of tickets (integrations/src/wallet, docs/product.md#wallet-passes): all
 * optional. Apple Wallet passes with the pass type's identifier, the team, its certificate and
 * key (PEM files) and Apple's WWDR certificate; Google Wallet's save links with the issuer, the
 * service account and its private key (PEM). A kind of pass is offered only with all its settings.
 */
export const walletConfig = z.object({
  WALLET_PASS_TYPE_ID: z.string().min(1).max(200).optional(),
  WALLET_TEAM_ID: z.string().min(1).max(50).optional(),
  WALLET_SIGNER_CERT_FILE: z.string().min(1).optional(),
  WALLET_SIGNER_KEY_FILE: z.string().min(1).optional(),
  WALLET_SIGNER_KEY_PASSPHRASE: z.string().min(1).optional(),
  WALLET_WWDR_CERT_FILE: z.string().min(1).optional(),
  GOOGLE_WALLET_ISSUER_ID: z.string().regex(/^\d+$/, 'must be the issuer id (digits)').optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL: z.email().optional(),
  GOOGLE_WALLET_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  // Updates of saved passes (integrations/src/wallet/updates.ts): where Apple's push service and
  // Google's Wallet API and token endpoint are (Apple's and Google's own unless a test or a proxy
  // stands in), an extra CA the push service's certificate may be issued by, and how often the
  // update job looks for moved or cancelled tickets.
  WALLET_APNS_ORIGIN: z.url({ protocol: /^https$/ }).default('https://api.push.apple.com'),
  WALLET_APNS_CA_FILE: z.string().min(1).optional(),
  GOOGLE_WALLET_API_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://walletobjects.googleapis.com/walletobjects/v1/'),
  GOOGLE_WALLET_TOKEN_URL: z
    .url({ protocol: /^https?$/ })
    .default('https://oauth2.googleapis.com/token'),
  WALLET_UPDATE_INTERVAL_MS: z.coerce.number().int().min(50).max(600000).default(2000),
});
export type WalletConfig = z.infer<typeof walletConfig>;

const APPLE = [
  'WALLET_PASS_TYPE_ID',
  'WALLET_TEAM_ID',
  'WALLET_SIGNER_CERT_FILE',
  'WALLET_SIGNER_KEY_FILE',
  'WALLET_WWDR_CERT_FILE',
] as const;
const GOOGLE = [
  'GOOGLE_WALLET_ISSUER_ID',
  'GOOGLE_WALLET_SERVICE_ACCOUNT_EMAIL',
  'GOOGLE_WALLET_PRIVATE_KEY_FILE',
] as const;

/** Which wallets the server offers passes for: a kind with all its settings. */
export function walletsConfigured(config: WalletConfig): { apple: boolean; google: boolean } {
  return {
    apple: APPLE.every((k) => config[k] !== undefined),
    google: GOOGLE.every((k) => config[k] !== undefined),
  };
}

/** A kind of pass with only some of its settings: start-up stops naming the missing ones. */
export function walletConfigProblems(config: WalletConfig): string[] {
  return [APPLE, GOOGLE].flatMap((keys) => {
    const missing = keys.filter((k) => config[k] === undefined);
    return missing.length > 0 && missing.length < keys.length
      ? [
          `${missing.join(', ')}: needed beside ${keys.filter((k) => !missing.includes(k)).join(', ')}`,
        ]
      : [];
  });
}
