import { expect } from 'vitest';
import type { Client } from '../support/app.ts';

/** A seat of a test plan: its label and attributes (docs/product.md#seat-plans). */
export type SeatRow = [label: string, attributes: string[]];

/**
 * Sets a room's seats through the staff API (`PUT /api/admin/rooms/{id}/seats`): rows of four,
 * 23 per cent apart from the left and 30 per cent from the top, in the order given. Answers the
 * seats' ids by label.
 */
export async function setRoomSeats(
  admin: Client,
  roomId: string,
  seats: readonly SeatRow[],
): Promise<Map<string, string>> {
  const res = await admin.request('PUT', `/api/admin/rooms/${roomId}/seats`, {
    json: {
      seats: seats.map(([label, attributes], i) => ({
        label,
        attributes,
        x: 15 + (i % 4) * 23,
        y: 20 + Math.floor(i / 4) * 30,
        rotation: (i % 4) * 15,
      })),
    },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  const answer = (await res.json()) as { seats: { id: string; label: string }[] };
  return new Map(answer.seats.map((seat) => [seat.label, seat.id]));
}
