import { useCallback } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { useTranslation } from '../../../i18n/i18n-context';
import { fieldMessage } from '../../../lib/field-message';
import type { PlanSeat } from '../api/seat-plan-api';
import { useSeatPlanDraft, type SeatRefusal } from '../hooks/use-seat-plan-draft';
import { rotated, type DraftSeat } from '../utils/seat-plan-editing';
import { SeatForm } from './seat-form';
import { SeatPlanCanvas, seatButtonId } from './seat-plan-canvas';

/** The seat plan's editor: the plan, its tools, the selected seat's form and the save button. */
export function SeatPlanEditor({
  roomId,
  planSeats,
  imageUrl,
}: {
  roomId: string;
  planSeats: readonly PlanSeat[];
  imageUrl: string | null;
}) {
  const { t } = useTranslation('admin-rooms');
  const draft = useSeatPlanDraft(roomId, planSeats);
  const { seats, selected, refusals } = draft;
  const nameOf = useSeatName();
  const only = selected.size === 1 ? seats.find((seat) => selected.has(seat.key)) : undefined;
  const none = selected.size === 0;

  return (
    <section className="seat-editor" aria-labelledby="seat-editor-heading">
      <h2 id="seat-editor-heading">{t('seats.editor-heading')}</h2>
      <p className="field__hint" id="seat-editor-keys">
        {t('seats.keys-hint')}
      </p>
      <div className="seat-editor__tools" role="group" aria-label={t('seats.tools')}>
        <button type="button" className="button button--secondary" onClick={draft.addOnFreeSpot}>
          {t('seats.add')}
        </button>
        <SeatChooser
          seats={seats}
          chosen={only?.key ?? ''}
          onChoose={(key) => {
            draft.select(key, false);
            document.getElementById(seatButtonId(key))?.focus({ preventScroll: false });
          }}
        />
        <button
          type="button"
          className="button button--secondary"
          disabled={none}
          onClick={draft.selectRow}
        >
          {t('seats.select-row')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={none}
          onClick={draft.copyRow}
        >
          {t('seats.copy-row')}
        </button>
        <button
          type="button"
          className="button button--secondary"
          disabled={none}
          onClick={() => draft.changeSeats(selected, (seat) => rotated(seat, 1))}
        >
          {t('seats.rotate')}
        </button>
        <button
          type="button"
          className="button button--danger"
          disabled={none}
          onClick={() => draft.remove()}
        >
          {t('seats.delete')}
        </button>
      </div>
      <p className="seat-editor__count" role="status">
        {t('seats.count', { count: seats.length })}
        {selected.size > 0 ? ` ${t('seats.selected', { count: selected.size })}` : ''}
      </p>
      <div className="seat-editor__layout">
        <SeatPlanCanvas
          seats={seats}
          selected={selected}
          imageUrl={imageUrl}
          refusedBy={draft.refusedBy}
          nameOf={nameOf}
          onSelect={draft.select}
          onPlace={draft.addAt}
          onMoveTo={draft.moveTo}
          onNudge={draft.nudge}
          onRotate={draft.rotate}
          onDelete={draft.remove}
        />
        {only ? (
          <SeatForm
            key={only.key}
            seat={only}
            refusals={refusals.filter((refusal) => refusal.key === only.key)}
            onChange={(how) => draft.changeSeats(new Set([only.key]), how)}
          />
        ) : null}
      </div>
      <SeatRefusals
        refusals={refusals}
        error={draft.ownErrors.length ? null : draft.saving.error}
        seats={seats}
      />
      <div className="form__actions">
        <button
          type="button"
          className="button button--primary"
          disabled={draft.saving.isLoading}
          onClick={() => void draft.submit()}
        >
          {t('seats.save')}
        </button>
      </div>
      <p role="status" className="seat-editor__status">
        {draft.status}
      </p>
    </section>
  );
}

/** A seat's accessible name: its label, its attributes in words and its zone. */
export function useSeatName(): (seat: Pick<DraftSeat, 'label' | 'attributes' | 'zone'>) => string {
  const { t } = useTranslation('admin-rooms');
  return useCallback(
    (seat) =>
      [
        t('seats.seat', { label: seat.label }),
        ...seat.attributes.map((attribute) => t(`seats.attribute.${attribute}`)),
        ...(seat.zone ? [t('seats.in-zone', { zone: seat.zone })] : []),
      ].join(', '),
    [t],
  );
}

/** The refused seats' messages (each the description of its seat on the plan), or the refusal. */
function SeatRefusals({
  refusals,
  error,
  seats,
}: {
  refusals: readonly SeatRefusal[];
  error: unknown;
  seats: readonly DraftSeat[];
}) {
  const { t } = useTranslation('admin-rooms');
  if (!refusals.length) return error ? <ErrorBox error={error} reveal /> : null;
  return (
    <div className="error-box" role="alert">
      <p className="error-box__message">{t('seats.refused', { count: refusals.length })}</p>
      <ul>
        {refusals.map((refusal) => (
          <li key={refusal.messageId} id={refusal.messageId}>
            {t('seats.refused-seat', {
              label: seats.find((seat) => seat.key === refusal.key)?.label ?? '',
              field: t(`seats.field.${refusal.field}`),
              message: fieldMessage(t, refusal.error),
            })}
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * The keyboard's way to any seat of a large plan: only the selected seats are in the tab order,
 * so choosing one by its label here selects it and moves the focus onto it.
 */
function SeatChooser({
  seats,
  chosen,
  onChoose,
}: {
  seats: readonly DraftSeat[];
  chosen: string;
  onChoose: (key: string) => void;
}) {
  const { t } = useTranslation('admin-rooms');
  return (
    <div className="seat-editor__chooser">
      <label htmlFor="seat-chooser" className="field__label">
        {t('seats.choose')}
      </label>
      <select
        id="seat-chooser"
        className="field__control"
        value={chosen}
        onChange={(event) => {
          if (event.target.value) onChoose(event.target.value);
        }}
      >
        <option value="">{t('seats.choose-none')}</option>
        {seats.map((seat) => (
          <option key={seat.key} value={seat.key}>
            {seat.label}
          </option>
        ))}
      </select>
    </div>
  );
}
