import { useState, type FormEvent } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { InputField, SelectField } from '../../../components/form-field';
import { TableRegion } from '../../../components/table-region';
import { useRefusal } from '../../../hooks/use-refusal';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { fieldMessage } from '../../../lib/field-message';
import {
  useReturnSeatToServiceMutation,
  useTakeSeatOutOfServiceMutation,
  type AdminSeatPlan,
} from '../api/seat-plan-api';

const FIELDS = ['seat', 'from', 'until', 'reason'] as const;
type Field = (typeof FIELDS)[number];
const idOf = (field: Field) => `out-of-service-${field}`;
const EMPTY: Record<Field, string> = { seat: '', from: '', until: '', reason: '' };

/**
 * The seats out of service (docs/product.md#seat-plans): each range with its seat, days and
 * reason, which staff end early by removing it; and the form that takes a seat out of service.
 */
export function SeatOutOfServiceList({ roomId, plan }: { roomId: string; plan: AdminSeatPlan }) {
  const { t } = useTranslation('admin-rooms');
  const [values, setValues] = useState(EMPTY);
  const [missing, setMissing] = useState<Partial<Record<Field, string>>>({});
  const [status, setStatus] = useState('');
  const [take, taking] = useTakeSeatOutOfServiceMutation();
  const refusal = useRefusal(taking.error);
  const labelOf = (seatId: string) => plan.seats.find((seat) => seat.id === seatId)?.label ?? '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setStatus('');
    const found: Partial<Record<Field, string>> = {};
    for (const field of FIELDS)
      if (values[field].trim() === '') found[field] = fieldMessage(t, { key: 'required' });
    if (!found.from && !found.until && values.until < values.from)
      found.until = fieldMessage(t, { key: 'date-not-before' });
    setMissing(found);
    const first = FIELDS.find((field) => found[field]);
    if (first) {
      document.getElementById(idOf(first))?.focus();
      return;
    }
    try {
      await take({
        roomId,
        seatId: values.seat,
        from: values.from,
        until: values.until,
        reason: values.reason.trim(),
      }).unwrap();
    } catch {
      return; // shown by the error box
    }
    setStatus(t('seats.oos-added', { label: labelOf(values.seat) }));
    setValues(EMPTY);
  };

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setMissing((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <section className="seat-out-of-service" aria-labelledby="out-of-service-heading">
      <h2 id="out-of-service-heading">{t('seats.oos-heading')}</h2>
      <OutOfServiceTable
        roomId={roomId}
        plan={plan}
        labelOf={labelOf}
        onReturned={(label) => setStatus(t('seats.oos-removed', { label }))}
      />
      <h3 id="out-of-service-add-heading">{t('seats.oos-add-heading')}</h3>
      <form
        className="form"
        noValidate
        aria-labelledby="out-of-service-add-heading"
        onSubmit={(event) => void submit(event)}
      >
        <ErrorBox refusal={refusal} />
        <SelectField
          id={idOf('seat')}
          label={t('seats.oos-seat')}
          required
          value={values.seat}
          error={missing.seat}
          options={[
            { value: '', label: t('seats.oos-choose') },
            ...plan.seats.map((seat) => ({ value: seat.id, label: seat.label })),
          ]}
          onChange={(event) => set('seat', event.target.value)}
        />
        <InputField
          id={idOf('from')}
          type="date"
          label={t('seats.oos-from')}
          required
          value={values.from}
          error={missing.from}
          onChange={(event) => set('from', event.target.value)}
        />
        <InputField
          id={idOf('until')}
          type="date"
          label={t('seats.oos-until')}
          required
          min={values.from || undefined}
          value={values.until}
          error={missing.until}
          onChange={(event) => set('until', event.target.value)}
        />
        <InputField
          id={idOf('reason')}
          label={t('seats.oos-reason')}
          hint={t('seats.oos-reason-hint')}
          required
          maxLength={500}
          value={values.reason}
          error={missing.reason}
          onChange={(event) => set('reason', event.target.value)}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={taking.isLoading}>
            {t('seats.oos-add')}
          </button>
        </div>
        <p role="status">{status}</p>
      </form>
    </section>
  );
}

/** The ranges of seats out of service, each with its button that puts the seat back. */
function OutOfServiceTable({
  roomId,
  plan,
  labelOf,
  onReturned,
}: {
  roomId: string;
  plan: AdminSeatPlan;
  labelOf: (seatId: string) => string;
  onReturned: (label: string) => void;
}) {
  const { t } = useTranslation('admin-rooms');
  const [giveBack, returning] = useReturnSeatToServiceMutation();
  return (
    <>
      {plan.outOfService.length ? (
        <TableRegion label={t('seats.oos-heading')}>
          <table className="data-table">
            <thead>
              <tr>
                <th scope="col">{t('seats.oos-seat')}</th>
                <th scope="col">{t('seats.oos-from')}</th>
                <th scope="col">{t('seats.oos-until')}</th>
                <th scope="col">{t('seats.oos-reason')}</th>
                <th scope="col">
                  <span className="visually-hidden">{t('seats.oos-actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {plan.outOfService.map((range) => (
                <tr key={range.id}>
                  <td>{labelOf(range.seatId)}</td>
                  <td>{formatDate(range.from)}</td>
                  <td>{formatDate(range.until)}</td>
                  <td>{range.reason}</td>
                  <td>
                    <button
                      type="button"
                      className="button button--secondary"
                      disabled={returning.isLoading}
                      onClick={() => {
                        void giveBack({ roomId, id: range.id })
                          .unwrap()
                          .then(() => onReturned(labelOf(range.seatId)))
                          .catch(() => undefined);
                      }}
                    >
                      {t('seats.oos-remove', { label: labelOf(range.seatId) })}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      ) : (
        <p>{t('seats.oos-none')}</p>
      )}
      {returning.error ? <ErrorBox error={returning.error} reveal /> : null}
    </>
  );
}
