import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { WaitlistInput } from '@rr/contracts/waitlist';
import { useTranslation } from '../../../i18n/i18n-context';
import { SESSION_KEYS, readSession, writeSession } from '../../../lib/session-storage';
import { useGetWaitlistPlaceQuery, useJoinWaitlistMutation } from '../api/booking-api';
import { ContactHint } from './contact-hint';
import { EmailRequestForm, emailRequestCheck } from './email-request-form';

/** The join request from the typed address and the page's language (the offer mail's). */
const checkJoin = emailRequestCheck(WaitlistInput);

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
  const { t } = useTranslation('booking');
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [join, { data, error, isLoading }] = useJoinWaitlistMutation();
  const id = `waitlist-${timeSlotId}`;
  const done = useRef<HTMLParagraphElement>(null);
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

  return open ? (
    <EmailRequestForm
      id={id}
      className="waitlist"
      check={checkJoin}
      intro={<p>{t('waitlist.intro', { count: offerMinutes })}</p>}
      label={t('waitlist.email')}
      submitLabel={
        <>
          {t(isLoading ? 'waitlist.joining' : 'waitlist.join')}
          <span className="visually-hidden"> {time}</span>
        </>
      }
      busy={isLoading}
      error={error}
      errorExtra={<ContactHint error={error} />}
      onSubmit={(body) => void join({ timeSlotId, body })}
    />
  ) : (
    <button type="button" className="button button--secondary" onClick={() => setOpen(true)}>
      {t('waitlist.join')}
      <span className="visually-hidden"> {time}</span>
    </button>
  );
}
