import { z } from 'zod';

// How the configuration reads the values of the environment's variables.

/** A switch: true, false, 1, 0, yes or no. */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list of URLs of the given kind (empty = none). */
export const listOf = (url: z.ZodURL) =>
  z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean),
    )
    .pipe(z.array(url));

/** A comma-separated list of names (empty = none). */
export const nameList = z.string().transform((s) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean),
);

/** A comma-separated list of host names or addresses, lower-cased (empty = none). */
export const hostList = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim().toLowerCase())
      .filter(Boolean),
  );
