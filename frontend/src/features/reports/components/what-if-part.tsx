import { useId, useState } from 'react';
import { ErrorBox } from '../../../components/error-box';
import { InputField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { TableRegion } from '../../../components/table-region';
import { useTranslation } from '../../../i18n/i18n-context';
import { problemCode } from '../../../lib/error-message';
import { useGetWhatIfQuery } from '../api/reports-api';
import type { InsightsQuery } from '../utils/insights';

/** The rules the replay changes: seats of every slot, tickets per visitor and day. */
interface WhatIfAsk {
  capacity?: number;
  maxTicketsPerDay?: number;
}

/** A whole number in [min, max] from a field, undefined when empty, null when not valid. */
function wholeIn(text: string, min: number, max: number): number | undefined | null {
  const v = text.trim();
  if (v === '') return undefined;
  if (!/^\d{1,6}$/.test(v)) return null;
  const n = Number(v);
  return n >= min && n <= max ? n : null;
}

/** "What if …?": the replay under other rules beside what happened (docs/product.md#insights). */
export function WhatIfPart({ query }: { query: InsightsQuery }) {
  const { t } = useTranslation('reports');
  const headingId = useId();
  const [seats, setSeats] = useState('');
  const [perDay, setPerDay] = useState('');
  const [tried, setTried] = useState(false);
  const [asked, setAsked] = useState<WhatIfAsk | null>(null);
  const capacity = wholeIn(seats, 0, 99999);
  const maxTicketsPerDay = wholeIn(perDay, 1, 100);
  const none = capacity === undefined && maxTicketsPerDay === undefined;
  const replay = useGetWhatIfQuery({ query, change: asked ?? {} }, { skip: asked === null });
  const title = t('insights.what-if.title');
  const changed = asked
    ? [
        ...(asked.capacity === undefined
          ? []
          : [t('insights.what-if.seats-n', { count: asked.capacity })]),
        ...(asked.maxTicketsPerDay === undefined
          ? []
          : [t('insights.what-if.per-day-n', { tickets: asked.maxTicketsPerDay })]),
      ].join(', ')
    : '';
  return (
    <section className="insights-part" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <form
        className="report-filters no-print"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setTried(true);
          if (capacity === null || maxTicketsPerDay === null || none) return;
          setAsked({
            ...(capacity === undefined ? {} : { capacity }),
            ...(maxTicketsPerDay === undefined ? {} : { maxTicketsPerDay }),
          });
        }}
      >
        <div className="field-row">
          <InputField
            id="insights-what-if-seats"
            type="number"
            inputMode="numeric"
            min={0}
            max={99999}
            label={t('insights.what-if.seats')}
            value={seats}
            error={
              capacity === null
                ? t('insights.what-if.seats-invalid')
                : tried && none
                  ? t('insights.what-if.change-required')
                  : undefined
            }
            onChange={(event) => setSeats(event.target.value)}
          />
          <InputField
            id="insights-what-if-per-day"
            type="number"
            inputMode="numeric"
            min={1}
            max={100}
            label={t('insights.what-if.per-day')}
            value={perDay}
            error={maxTicketsPerDay === null ? t('insights.what-if.per-day-invalid') : undefined}
            onChange={(event) => setPerDay(event.target.value)}
          />
        </div>
        <button type="submit" className="button">
          {t('insights.what-if.replay')}
        </button>
      </form>
      {asked === null ? null : problemCode(replay.error)?.code === 'insights__replay_busy' ? (
        // Other replays hold every turn: the message names the wait, the button asks again.
        <ErrorBox
          error={replay.error}
          extra={
            <button
              type="button"
              className="button"
              disabled={replay.isFetching}
              onClick={() => void replay.refetch()}
            >
              {t('insights.what-if.try-again')}
            </button>
          }
        />
      ) : (
        <LoadingContainer
          data={replay.currentData}
          error={replay.error}
          backLink={{ to: '/reports', label: t('back-to-reports') }}
        >
          {(w) => (
            <TableRegion label={t('insights.what-if.caption', { change: changed })}>
              <table className="data-table report-table">
                <caption className="visually-hidden">
                  {t('insights.what-if.caption', { change: changed })}
                </caption>
                <thead>
                  <tr>
                    <td />
                    <th scope="col" className="data-table__number">
                      {t('insights.what-if.actual')}
                    </th>
                    <th scope="col" className="data-table__number">
                      {t('insights.what-if.with-change', { change: changed })}
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {(['served', 'refused', 'waitlisted'] as const).map((key) => (
                    <tr key={key}>
                      <th scope="row">{t(`insights.what-if.${key}`)}</th>
                      <td className="data-table__number">{w.actual[key]}</td>
                      <td className="data-table__number">{w.whatIf[key]}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          )}
        </LoadingContainer>
      )}
    </section>
  );
}
