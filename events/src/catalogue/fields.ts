import { z } from 'zod';

/** The fields several streams' events share, each with its one rule. */
export const id = z.uuid();
export const instant = z.iso.datetime({ offset: true });
export const date = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);
export const time = z.string().regex(/^\d{2}:\d{2}$/);
/** The key of a booking's owner (the visitor's own page, the confirmation mail's link). */
export const ownerId = z.string().regex(/^[0-9a-f]{32}$/);
/** The HMAC of a normalised e-mail address: the log never holds the address itself. */
export const emailKey = z.string().regex(/^[0-9a-f]{40}$/);
export const language = z.enum(['de', 'en']);
/**
 * A ticket's seat of its room's seat plan: its id and label (a seat keeps its id by its label, so
 * the pair never changes). Absent in every event before seat plans and in rooms without one.
 */
export const seat = z.object({ seatId: id, label: z.string().min(1).max(12) });
