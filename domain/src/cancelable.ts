/** Whether a booked ticket can still be cancelled: its slot has not started yet (local time). */
export function isCancelable(
  status: string,
  slot: { date: string; startTime: string },
  localNow: { date: string; time: string },
): boolean {
  if (status !== 'BOOKED') return false;
  return (
    slot.date > localNow.date || (slot.date === localNow.date && slot.startTime > localNow.time)
  );
}
