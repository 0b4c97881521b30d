import * as z from 'zod/mini';

/**
 * docs/product.md#no-show-rule: a blocked address is named to staff by the key of its address (a
 * keyed hash, 40 hex digits), never by the address in a URL.
 */
export const NoShowBlockKey = z.string().check(z.regex(/^[0-9a-f]{40}$/));
