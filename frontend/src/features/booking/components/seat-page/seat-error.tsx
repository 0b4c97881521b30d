import { useSeatPageTranslation } from './seat-page-texts';
import { useRef } from 'react';
import { useRevealOnShow } from '../../../../hooks/use-refusal';
import { useTranslation } from '../../../../i18n/i18n-context';
import {
  errorMessageKey,
  errorMessageKeys,
  errorMessageParams,
  problemCode,
  type ErrorMessageParams,
} from '../../../../lib/error-message';
import { formatTime } from '../../../../lib/dates';

/**
 * The values of the refusals at a seat: the payload starts with the name its key ends in, the
 * values follow (`['seat', label]`, `['window', opens, closes]` as local `YYYY-MM-DD HH:MM`,
 * `['minutes', n]`).
 */
function seatErrorParams(error: unknown): ErrorMessageParams & { closes?: string } {
  const parsed = problemCode(error);
  const [name, first = '', second = ''] = parsed?.payload ?? [];
  if (name === 'seat') return { value: first };
  if (name === 'window')
    return { value: formatTime(first.slice(11)), closes: formatTime(second.slice(11)) };
  if (name === 'minutes') return { value: first, count: Number(first) };
  return errorMessageParams(error);
}

/**
 * A refusal at the seat, in the visitor's words: the seat page's own message of the key (the
 * desk's check-in messages speak to staff), else the catalogue's. Takes focus when it shows.
 */
export function SeatError({ error }: { error: unknown }) {
  const { t } = useSeatPageTranslation();
  const { t: te } = useTranslation('common-error');
  const box = useRef<HTMLDivElement>(null);
  useRevealOnShow(box, error);
  const params = seatErrorParams(error);
  const key = errorMessageKey(error);
  const code = problemCode(error)?.code ?? '';
  const own = [`errors.${key}`, `errors.${code}`];
  const text = t(own, params);
  return (
    <div className="error-box" role="alert" ref={box} tabIndex={-1}>
      <p className="error-box__message">
        {own.includes(text) ? te(errorMessageKeys(error), params) : text}
      </p>
    </div>
  );
}
