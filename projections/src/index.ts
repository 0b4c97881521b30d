import type { Projection } from './projection.ts';
import { roomsProjection } from './rooms.ts';

export * from './projection.ts';
export * from './runner.ts';

/** Projections that build read models the query side serves (read-your-writes waits for these). */
export const readModelProjections: Projection[] = [roomsProjection];
