import { useId, useRef, type ReactNode } from 'react';
import { useTranslation } from '../../i18n/i18n-context';
import { occupancyPercent, type CalendarSlot } from '../../lib/calendar';
import { formatTimeRange } from '../../lib/dates';
import { closeDialog, Dialog } from '../dialog';

interface DaySlotsDialogProps<S extends CalendarSlot> {
  title: string;
  /** More about the day (a holiday's name, "not yet bookable"), below the title. */
  note?: string | undefined;
  slots: readonly S[];
  renderSlotAction: (slot: S) => ReactNode;
  onClose: () => void;
}

/** The slots of one day: time range, occupancy text and bar, and an action per slot. */
export function DaySlotsDialog<S extends CalendarSlot>({
  title,
  note,
  slots,
  renderSlotAction,
  onClose,
}: DaySlotsDialogProps<S>) {
  const { t } = useTranslation();
  const headingId = useId();
  const dialog = useRef<HTMLDialogElement>(null);

  return (
    <Dialog labelledBy={headingId} onClose={onClose} dialogRef={dialog} className="dialog--slots">
      <h2 id={headingId} className="dialog__title">
        {title}
      </h2>
      {note ? <p className="dialog__note">{note}</p> : null}
      {slots.length === 0 ? (
        <p>{t('calendar.no-slots')}</p>
      ) : (
        <ul className="slot-list">
          {slots.map((slot) => {
            const range = formatTimeRange(slot.startTime, slot.endTime);
            const occupied = t('calendar.occupied', {
              ticketCount: slot.ticketCount,
              capacity: slot.capacity,
            });
            const percent = occupancyPercent(slot.ticketCount, slot.capacity);
            return (
              <li key={slot.id} className="slot-list__item">
                <p className="slot-list__time">
                  <span className="visually-hidden">{t('calendar.time')} </span>
                  <span className="time-range">{range}</span>
                </p>
                <p className="slot-list__occupancy">{occupied}</p>
                <div
                  className="progress"
                  role="progressbar"
                  aria-label={t('calendar.occupancy', { range })}
                  aria-valuemin={0}
                  aria-valuemax={100}
                  aria-valuenow={percent}
                  aria-valuetext={`${percent} %`}
                >
                  <div
                    className={`progress__bar${slot.ticketCount > slot.capacity ? ' progress__bar--over' : ''}`}
                    style={{ width: `${percent}%` }}
                  />
                </div>
                <div className="slot-list__action">{renderSlotAction(slot)}</div>
              </li>
            );
          })}
        </ul>
      )}
      <div className="form__actions">
        <button
          type="button"
          className="button button--secondary"
          onClick={() => closeDialog(dialog)}
        >
          {t('calendar.cancel')}
        </button>
      </div>
    </Dialog>
  );
}
