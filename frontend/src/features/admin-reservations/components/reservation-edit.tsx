import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { Ticket } from '../../../api/types';
import { useAppDispatch } from '../../../app/hooks';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { ErrorBox } from '../../../components/error-box';
import { useRefusal } from '../../../hooks/use-refusal';
import { CheckboxField, RefusalScope, RequiredHint } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTextIn, useTranslation } from '../../../i18n/i18n-context';
import { formatDate, formatTimeRange } from '../../../lib/dates';
import { notify } from '../../../stores/notifications-slice';
import {
  useCancelReservationsMutation,
  useGetRelatedReservationsQuery,
  useGetReservationQuery,
  useUpdateReservationOwnerMutation,
} from '../api/admin-reservations-api';
import {
  checkOwnerForm,
  OWNER_FIELDS,
  ownerName,
  ticketToOwnerValues,
  type OwnerField,
  type OwnerValues,
} from '../utils/owner-form';
import { backToListPath, fromList, historyPath, slotEditPath } from '../utils/paths';
import { OwnerFields } from './owner-fields';

const idOf = (field: OwnerField | 'salutation' | 'accessibility') => `reservation-${field}`;

/** The personal data of a ticket was erased (the day after the booked day). */
function isErased(ticket: Ticket): boolean {
  return ticket.firstName === null && ticket.lastName === null;
}

/**
 * Route `/reservations/:id`: a ticket with its owner's data. Administrators edit the owner
 * (of the whole booking) and cancel the ticket, optionally with the booking's other tickets;
 * anyone else sees it read-only.
 */
export function ReservationEdit({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('admin-reservations');
  const { id = '' } = useParams();
  const location = useLocation();
  // The list's search rides in the router state and (for a reload) in the address.
  const listParam = useSearchParams()[0].get('list');
  const backTo = backToListPath(location.state ?? (listParam ? fromList(listParam) : null));
  const { data, error } = useGetReservationQuery(id);

  return (
    <Page title={t('edit.title')}>
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: backTo, label: t('back-to-list') }}
      >
        {(ticket) => (
          <ReservationEditContent
            key={ticket.id}
            ticket={ticket}
            canEdit={canEdit}
            backTo={backTo}
          />
        )}
      </LoadingContainer>
    </Page>
  );
}

interface ContentProps {
  ticket: Ticket;
  canEdit: boolean;
  backTo: string;
}

function ReservationEditContent({ ticket, canEdit, backTo }: ContentProps) {
  const { t } = useTranslation('admin-reservations');
  const textIn = useTextIn();
  const booked = ticket.status === 'BOOKED';
  const erased = isErased(ticket);
  const editable = canEdit && booked && !erased;

  return (
    <>
      <dl className="summary-list">
        <div>
          <dt>{t('ticket.booking-number')}</dt>
          <dd>{ticket.bookingNumber ?? '–'}</dd>
        </div>
        <div>
          <dt>{t('ticket.status')}</dt>
          <dd>{t(`status.${ticket.status}`)}</dd>
        </div>
        <div>
          <dt>{t('ticket.room')}</dt>
          <dd>{textIn(ticket.roomName, ticket.roomNameEn)}</dd>
        </div>
        <div>
          <dt>{t('ticket.date')}</dt>
          <dd>{formatDate(ticket.date)}</dd>
        </div>
        <div>
          <dt>{t('ticket.time')}</dt>
          <dd>{formatTimeRange(ticket.startTime, ticket.endTime)}</dd>
        </div>
      </dl>
      <ul className="link-row">
        <li>
          <Link to={historyPath(ticket.id)}>{t('edit.history')}</Link>
        </li>
        {canEdit ? (
          <li>
            <Link to={slotEditPath(ticket.roomId, ticket.timeSlotId)}>{t('edit.to-slot')}</Link>
          </li>
        ) : null}
        <li>
          <Link to={backTo}>{t('back-to-list')}</Link>
        </li>
      </ul>
      <section aria-labelledby="reservation-owner-heading">
        <h2 id="reservation-owner-heading">{t('edit.owner-heading')}</h2>
        {erased ? (
          <p className="notice">{t('edit.erased')}</p>
        ) : editable ? (
          <OwnerForm ticket={ticket} />
        ) : (
          <OwnerSummary ticket={ticket} />
        )}
      </section>
      {canEdit && booked ? <CancelSection ticket={ticket} backTo={backTo} /> : null}
    </>
  );
}

function OwnerSummary({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('admin-reservations');
  const rows: [string, string][] = [
    [t('owner.salutation'), t(`owner.salutations.${ticket.salutation ?? 'NONE'}`)],
    [t('owner.title'), ticket.title ?? ''],
    [t('owner.name'), ownerName(ticket) ?? ''],
    [t('owner.organisation'), ticket.organisation ?? ''],
    [t('owner.email'), ticket.email ?? ''],
    [t('owner.phone'), ticket.phone ?? ''],
    [t('owner.accessibility'), t(ticket.accessibility ? 'yes' : 'no')],
  ];
  return (
    <dl className="summary-list">
      {rows.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{value || '–'}</dd>
        </div>
      ))}
    </dl>
  );
}

function OwnerForm({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('admin-reservations');
  const dispatch = useAppDispatch();
  const [values, setValues] = useState<OwnerValues>(() => ticketToOwnerValues(ticket));
  const [update, result] = useUpdateReservationOwnerMutation();
  const form = useValidatedForm(checkOwnerForm, OWNER_FIELDS, idOf);
  const refusal = useRefusal(result.error, { email: idOf('email') });

  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(values);
    if (!body) return;
    try {
      await update({ id: ticket.id, body }).unwrap();
    } catch {
      return; // shown by the error box
    }
    dispatch(notify({ title: t('edit.saved', { name: ownerName(body) ?? '' }) }));
  };

  return (
    <RefusalScope refusal={refusal}>
      <form className="form" noValidate onSubmit={save}>
        <p>{t('edit.owner-intro')}</p>
        <RequiredHint />
        <ErrorBox refusal={refusal} />
        <OwnerFields
          idOf={idOf}
          values={values}
          messageOf={form.messageOf}
          hints={ticket.email ? { email: t('edit.email-hint') } : {}}
          onText={(field, value) => {
            const next = { ...values, [field]: value };
            setValues(next);
            form.revalidate(next);
          }}
          onChange={(change) => setValues((current) => ({ ...current, ...change }))}
        />
        <div className="form__actions">
          <button type="submit" className="button button--primary" disabled={result.isLoading}>
            {t('edit.submit')}
          </button>
        </div>
      </form>
    </RefusalScope>
  );
}

function CancelSection({ ticket, backTo }: { ticket: Ticket; backTo: string }) {
  const { t } = useTranslation('admin-reservations');
  const textIn = useTextIn();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);
  const [selected, setSelected] = useState<readonly string[]>([]);
  const related = useGetRelatedReservationsQuery(ticket.id);
  const [cancel, result] = useCancelReservationsMutation();
  const others = (related.data ?? []).filter(
    (other) => other.status === 'BOOKED' && other.cancelable,
  );
  const slot = `${formatDate(ticket.date)} ${formatTimeRange(ticket.startTime, ticket.endTime)}`;

  const toggle = (id: string, checked: boolean) =>
    setSelected((current) =>
      checked ? [...current, id] : current.filter((selectedId) => selectedId !== id),
    );

  const confirm = async () => {
    const ids = [ticket.id, ...selected.filter((id) => others.some((other) => other.id === id))];
    let cancelled: number;
    try {
      ({ cancelled } = await cancel(ids).unwrap());
    } catch {
      return; // shown in the dialog
    }
    dispatch(notify({ title: t('cancel.done', { count: cancelled }) }));
    await navigate(backTo);
  };

  return (
    <section className="danger-zone" aria-labelledby="reservation-cancel-heading">
      <h2 id="reservation-cancel-heading">{t('cancel.heading')}</h2>
      {ticket.cancelable ? (
        <button
          type="button"
          className="button button--danger"
          onClick={() => {
            result.reset();
            setSelected([]);
            setAsking(true);
          }}
        >
          {t('cancel.button')}
        </button>
      ) : (
        <p className="notice notice--warning">{t('cancel.not-cancelable')}</p>
      )}
      {asking ? (
        <ConfirmDialog
          title={t('cancel.title')}
          confirmLabel={t('cancel.confirm', { count: 1 + selected.length })}
          cancelLabel={t('cancel.keep')}
          busy={result.isLoading}
          error={result.error}
          onConfirm={confirm}
          onCancel={() => setAsking(false)}
        >
          <p>{t('cancel.question', { room: textIn(ticket.roomName, ticket.roomNameEn), slot })}</p>
          {others.length > 0 ? (
            <fieldset className="fieldset">
              <legend>{t('cancel.related-legend')}</legend>
              {others.map((other) => (
                <CheckboxField
                  key={other.id}
                  id={`cancel-related-${other.id}`}
                  label={t('cancel.related-item', {
                    room: textIn(other.roomName, other.roomNameEn),
                    slot: `${formatDate(other.date)} ${formatTimeRange(other.startTime, other.endTime)}`,
                  })}
                  checked={selected.includes(other.id)}
                  onChange={(event) => toggle(other.id, event.target.checked)}
                />
              ))}
            </fieldset>
          ) : null}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}
