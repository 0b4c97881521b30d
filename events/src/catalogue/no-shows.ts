import { z } from 'zod';
import { defineEvent } from './define.ts';

const visitorKey = z.string().regex(/^[0-9a-f]{40}$/);
const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

// --- the no-show stream (one per key of an address): staff decisions on the no-show rule -------

/**
 * Staff lifted the no-show block of a key (docs/product.md#no-show-rule): its releases up to
 * `liftedThrough`, the last one, no longer count. The key only: the address stays beside the log.
 */
export const NoShowBlockLifted = defineEvent(
  'NoShowBlockLifted',
  z.object({ visitorKey, liftedThrough: date }),
);

export const noShowEvents = [NoShowBlockLifted];

type D<T extends { schema: z.ZodType }> = z.infer<T['schema']>;

export type NoShowEvent = { type: 'NoShowBlockLifted'; data: D<typeof NoShowBlockLifted> };

export const noShowStreamId = (visitorKey: string) => `no-shows-${visitorKey}`;
