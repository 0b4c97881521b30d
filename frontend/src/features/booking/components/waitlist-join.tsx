import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { WaitlistInput } from '@rr/contracts/waitlist';
import { ErrorBox } from '../../../components/error-box';
import { InputField, RefusalScope } from '../../../components/form-field';
import { useRefusal } from '../../../hooks/use-refusal';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { useTranslation } from '../../../i18n/i18n-context';
import { formCheck } from '../../../lib/form-check';
import { SESSION_KEYS, readSession, writeSession } from '../../../lib/session-storage';
import { useGetWaitlistPlaceQuery, useJoinWaitlistMutation } from '../api/booking-api';
import { ContactHint } from './contact-hint';

/** The join request from the typed address and the page's language (the offer mail's). */
const checkJoin = formCheck(WaitlistInput, (request: { email: string; language: string }) => ({
  ...request,
  email: request.email.trim(),
}));
const FIELDS = ['email'] as const;

/**
 * On a full slot of a room with a waitlist, the visitor joins the line with an
 * e-mail address (checked with the server's contract) and learns their place in it; the
 * server's refusals (blacklist, limits, already in line, seats free again) are shown as such.
 */
export function WaitlistJoin({
  timeSlotId,
  offerMinutes,
  time,
}: {
  timeSlotId: string;
  offerMinutes: number;
  /** The slot's time range, for the buttons' names. */
  time: string;
}) {
  const { t, i18n } = useTranslation('booking');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [email, setEmail] = useState('');
  const [join, { data, error, isLoading }] = useJoinWaitlistMutation();
  const id = `waitlist-${timeSlotId}`;
  const form = useValidatedForm(checkJoin, FIELDS, () => id);
  const refusal = useRefusal(error, { email: id });
  const done = useRef<HTMLParagraphElement>(null);
  const request = { email, language: i18n.language };
  // The entry's reference, kept like the cart's id: after a reload the place is asked again.
  const storageKey = SESSION_KEYS.waitlist + timeSlotId;
  const reference = data?.reference ?? readSession(storageKey);
  const kept = useGetWaitlistPlaceQuery(reference ?? '', { skip: !reference || !!data });
  const position = data?.positionInLine ?? kept.data?.positionInLine;

  // The opening button is gone: focus goes to the address field, and after joining to the answer.
  useEffect(() => {
    if (data) {
      writeSession(storageKey, data.reference);
      done.current?.focus();
    } else if (open) document.getElementById(id)?.focus();
  }, [data, open, id, storageKey]);

  if (position && reference) {
    return (
      <div className="waitlist__done">
        <p role="status" tabIndex={-1} ref={done}>
          {t('waitlist.joined', { position, count: offerMinutes })}
        </p>
        {/* The way out beside the place: the leave page leaves and names the slot left. */}
        <button
          type="button"
          className="button button--secondary"
          onClick={() => void navigate(`/waitlist-leave/${encodeURIComponent(reference)}`)}
        >
          {t('leave.button')}
          <span className="visually-hidden"> {time}</span>
        </button>
      </div>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = form.validate(request);
    if (body && !isLoading) void join({ timeSlotId, body });
  };

  return open ? (
    <RefusalScope refusal={refusal}>
      <form className="waitlist" noValidate onSubmit={submit}>
        <p>{t('waitlist.intro', { count: offerMinutes })}</p>
        <InputField
          id={id}
          label={t('waitlist.email')}
          type="email"
          autoComplete="email"
          required
          value={email}
          error={form.messageOf('email')}
          onChange={(event) => {
            setEmail(event.target.value);
            form.revalidate({ ...request, email: event.target.value });
          }}
        />
        <button
          type="submit"
          className="button button--primary"
          aria-disabled={isLoading || undefined}
        >
          {t(isLoading ? 'waitlist.joining' : 'waitlist.join')}
          <span className="visually-hidden"> {time}</span>
        </button>
        <ErrorBox refusal={refusal} extra={<ContactHint error={error} />} />
      </form>
    </RefusalScope>
  ) : (
    <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
      {t('waitlist.join')}
      <span className="visually-hidden"> {time}</span>
    </button>
  );
}
