import { createHash } from 'node:crypto';

/**
 * A cart's pseudonym in `cart_refusals`: a hash of its id. It tells one cart's retries apart
 * from another cart's request, and the what-if replay finds a cart's refusals by it (the command
 * side writes it, the query side matches the carts it reads).
 */
export const cartKeyOf = (cartId: string): string =>
  createHash('sha256').update(`cart:${cartId}`).digest('hex').slice(0, 32);
