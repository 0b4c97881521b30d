import { Problem } from '@rr/platform';

/** A wallet the server has no settings for: refused, and named. */
export const walletNotConfigured = (wallet: 'Apple Wallet' | 'Google Wallet') =>
  new Problem(404, 'wallet__not_configured', `${wallet} passes are not configured on this server`, [
    wallet === 'Apple Wallet' ? 'apple' : 'google',
  ]);
