import { catalogueValidator } from './define.ts';
import { roomEvents } from './rooms.ts';

export * from './define.ts';
export * from './rooms.ts';

/** Every event type the product writes. */
export const catalogue = [...roomEvents];
export const validateEvent = catalogueValidator(catalogue);
