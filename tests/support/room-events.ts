/**
 * The details of a room as the event store's tests and benchmark write them (RoomCreated,
 * RoomUpdated): any valid room, named as the test likes.
 */
export function roomDetails(roomId: string, name = 'Reading room') {
  return {
    roomId,
    name,
    description: 'Quiet desks',
    capacity: 20,
    openStart: { type: 'DAY' as const, value: 2 },
    openEnd: { type: 'WORKING_DAY' as const, value: 30 },
  };
}
