import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { date, emailKey } from './fields.ts';

/**
 * Staff lifted the no-show block of a key (docs/product.md#no-show-rule): its releases up to
 * `liftedThrough`, the last one, no longer count. The key only: the address stays beside the log.
 */
export const NoShowBlockLifted = defineEvent(
  'NoShowBlockLifted',
  z.object({ visitorKey: emailKey, liftedThrough: date }),
);

/** One stream per key of an address: staff's decisions on its no-show rule. */
export const noShowStream = defineStream('no-shows', [NoShowBlockLifted]);

export type NoShowEvent = EventOf<typeof noShowStream>;

export const noShowStreamId = (visitorKey: string) => `${noShowStream.kind}-${visitorKey}`;
