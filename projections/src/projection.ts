import type { RecordedEvent, Projection } from '@rr/events';
import type { PoolClient } from '@rr/platform';

/** Applies the events a projection handles: in one batch when it can, else one by one. */
export async function applyEvents(
  client: PoolClient,
  projection: Projection,
  events: RecordedEvent[],
): Promise<number> {
  const handled = events.filter((e) => projection.handles.has(e.type));
  if (handled.length === 0) return 0;
  if (projection.applyBatch) await projection.applyBatch(client, handled);
  else for (const event of handled) await projection.apply(client, event);
  return handled.length;
}
