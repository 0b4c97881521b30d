import type { Pool, RouteDef } from '@rr/platform';
import { roomQueryRoutes } from './rooms.ts';

export { minPositionGate, projectionsReached } from './consistency.ts';

/** Every read route of the product. */
export function queryRoutes(pool: Pool): RouteDef[] {
  return [...roomQueryRoutes(pool)];
}
