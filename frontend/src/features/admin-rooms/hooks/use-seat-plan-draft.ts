import { useCallback, useMemo, useState } from 'react';
import { check } from '@rr/contracts/issues';
import { SeatsInput } from '@rr/contracts/seats';
import { useLeaveWarning } from '../../../hooks/use-leave-warning';
import { useTranslation } from '../../../i18n/i18n-context';
import { useSetSeatsMutation, type PlanSeat } from '../api/seat-plan-api';
import {
  copiedRow,
  draftOf,
  freeSpot,
  inputOf,
  nudged,
  placedSeat,
  rotated,
  rowOf,
  type DraftSeat,
} from '../utils/seat-plan-editing';
import { refusedSeatErrors, seatErrorsOf, type SeatFieldError } from '../utils/seat-plan-errors';

/** A refused field of a seat of the plan (by the seat's key) and its message's element id. */
export interface SeatRefusal extends SeatFieldError {
  key: string;
  messageId: string;
}

const targetsOf = (selected: ReadonlySet<string>, key: string) =>
  selected.has(key) ? selected : new Set([key]);

/**
 * The seat plan as staff edit it: the seats, the selection, what each tool does to them, and the
 * save with the refused seats (the browser's own check first, then the server's).
 */
export function useSeatPlanDraft(roomId: string, planSeats: readonly PlanSeat[]) {
  const { t } = useTranslation('admin-rooms');
  const [seats, setSeats] = useState<DraftSeat[]>(() => planSeats.map(draftOf));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [dirty, setDirty] = useState(false);
  const [status, setStatus] = useState('');
  // The seats' keys in the order last sent: a refusal names a seat by its place in the request.
  const [sentKeys, setSentKeys] = useState<string[]>([]);
  const [ownErrors, setOwnErrors] = useState<SeatFieldError[]>([]);
  const [save, saving] = useSetSeatsMutation();
  useLeaveWarning(dirty, t('edit.unsaved'));

  const change = useCallback((next: (all: DraftSeat[]) => DraftSeat[]) => {
    setSeats(next);
    setDirty(true);
    setStatus('');
  }, []);
  const changeSeats = useCallback(
    (keys: ReadonlySet<string>, how: (seat: DraftSeat) => DraftSeat) =>
      change((all) => all.map((seat) => (keys.has(seat.key) ? how(seat) : seat))),
    [change],
  );

  const refusals = useMemo((): SeatRefusal[] => {
    const found = ownErrors.length ? ownErrors : refusedSeatErrors(saving.error);
    return found.flatMap((error) => {
      const key = sentKeys[error.index];
      return key
        ? [{ ...error, key, messageId: `seat-refusal-${error.index}-${error.field}` }]
        : [];
    });
  }, [ownErrors, saving.error, sentKeys]);
  const refusedBy = useMemo(
    () => new Map(refusals.map((refusal) => [refusal.key, refusal.messageId])),
    [refusals],
  );

  const select = useCallback((key: string, add: boolean) => {
    setSelected((current) => {
      if (!add) return new Set([key]);
      const next = new Set(current);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  }, []);
  const addAt = useCallback(
    (x: number, y: number) => {
      const seat = placedSeat(seats, x, y);
      change((all) => [...all, seat]);
      setSelected(new Set([seat.key]));
    },
    [seats, change],
  );
  const moveTo = useCallback(
    (key: string, x: number, y: number) => changeSeats(new Set([key]), (s) => ({ ...s, x, y })),
    [changeSeats],
  );
  const nudge = useCallback(
    (key: string, dx: number, dy: number) => {
      const keys = targetsOf(selected, key);
      setSelected(keys);
      changeSeats(keys, (seat) => nudged(seat, dx, dy));
    },
    [selected, changeSeats],
  );
  const rotate = useCallback(
    (key: string, steps: number) => {
      const keys = targetsOf(selected, key);
      setSelected(keys);
      changeSeats(keys, (seat) => rotated(seat, steps));
    },
    [selected, changeSeats],
  );
  const remove = useCallback(
    (key?: string) => {
      const keys = key === undefined ? selected : targetsOf(selected, key);
      change((all) => all.filter((seat) => !keys.has(seat.key)));
      setSelected(new Set());
    },
    [selected, change],
  );
  const addOnFreeSpot = () => {
    const spot = freeSpot(seats);
    addAt(spot.x, spot.y);
  };
  const copyRow = () => {
    const copies = copiedRow(seats, selected);
    change((all) => [...all, ...copies]);
    setSelected(new Set(copies.map((seat) => seat.key)));
  };
  const selectRow = () => {
    const first = seats.find((seat) => selected.has(seat.key));
    if (first) setSelected(new Set(rowOf(seats, first).map((seat) => seat.key)));
  };

  const submit = async () => {
    const sent = seats.map((seat) => seat.key);
    setSentKeys(sent);
    const body = seats.map(inputOf);
    const own = check(SeatsInput, { seats: body });
    setOwnErrors(own.ok ? [] : seatErrorsOf(own.errors));
    if (!own.ok) {
      saving.reset();
      return;
    }
    try {
      const answer = await save({ roomId, seats: body }).unwrap();
      const saved = answer.seats.map(draftOf);
      setSeats(saved);
      setSelected((current) => {
        const labels = new Set(
          seats.filter((s) => current.has(s.key)).map((s) => s.label.trim().toLowerCase()),
        );
        return new Set(saved.filter((s) => labels.has(s.label.toLowerCase())).map((s) => s.key));
      });
      setDirty(false);
      setStatus(t('seats.saved', { count: saved.length }));
    } catch {
      // shown by the error box and at the refused seats
    }
  };

  return {
    seats,
    selected,
    status,
    refusals,
    refusedBy,
    saving,
    ownErrors,
    select,
    addAt,
    addOnFreeSpot,
    moveTo,
    nudge,
    rotate,
    remove,
    copyRow,
    selectRow,
    changeSeats,
    submit,
  };
}
