import { z } from 'zod';
import { defineEvent, defineStream, type EventOf } from './define.ts';
import { id } from './fields.ts';

/** The manual order of all rooms; lives in the single `room-order` stream. */
export const RoomOrderChanged = defineEvent('RoomOrderChanged', z.object({ roomIds: z.array(id) }));

/** The manual order of the rooms: one stream for all of them. */
export const roomOrderStream = defineStream('room-order', [RoomOrderChanged]);

export type RoomOrderEvent = EventOf<typeof roomOrderStream>;

export const ROOM_ORDER_STREAM = roomOrderStream.kind;
