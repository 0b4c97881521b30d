import { useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { Ticket } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate, todayIso } from '../../../lib/dates';
import { resolveApiUrl, serializeParams } from '../../../lib/url';
import { adminReservationsApi, useGetReservationsQuery } from '../api/admin-reservations-api';
import { rememberListSearch } from '../utils/paths';
import { loadAllTickets } from '../utils/print-all';
import { showPager } from '../utils/pager';
import {
  countQuery,
  LIST_TYPES,
  listStateToParams,
  newSearch,
  parseListState,
  searchOf,
  ticketFilter,
  ticketQuery,
  type ListState,
  type ListType,
} from '../utils/reservation-list';
import { ReservationPager } from './reservation-pager';
import { ReservationSearchForm } from './reservation-search-form';
import { ReservationTable } from './reservation-table';
import { nextSort } from '../../../lib/sorting';

/**
 * Route `/reservations`: booked and cancelled tickets, searched by date range and text, sorted
 * and paged. The whole state lives in the address (see `parseListState`).
 */
export function ReservationList({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation('admin-reservations');
  const { baseApiUrl } = useConfig();
  const [searchParams, setSearchParams] = useSearchParams();
  const [today] = useState(() => todayIso());
  const state = parseListState(searchParams, today);
  // `data` keeps the last result while a new page or sort loads: the table stays in place.
  const { data, error, isFetching } = useGetReservationsQuery(ticketQuery(state));
  const counts: Record<ListType, number | undefined> = {
    booked: useTabCount(state, 'booked', data?.totalCount),
    cancelled: useTabCount(state, 'cancelled', data?.totalCount),
    'no-show': useTabCount(state, 'no-show', data?.totalCount),
  };
  // The no-show tab only where there are no-shows (or it is open).
  const tabs = LIST_TYPES.filter(
    (type) => type !== 'no-show' || state.type === type || (counts[type] ?? 0) > 0,
  );
  const show = (next: ListState) => setSearchParams(listStateToParams(next));
  const print = usePrintAll(ticketQuery(state), searchParams.toString());
  // The way back from a reservation finds the list as it is now.
  const listSearch = searchParams.toString();
  useEffect(() => rememberListSearch(listSearch), [listSearch]);
  const csvUrl = resolveApiUrl(
    baseApiUrl,
    `admin/tickets/export.csv?${serializeParams({ ...ticketFilter(state) })}`,
  );

  return (
    <Page title={t('list.title')}>
      <nav className="tabs no-print" aria-label={t('list.tabs-label')}>
        <ul className="tabs__list">
          {tabs.map((type) => (
            <li key={type}>
              <Link
                className="tabs__tab"
                to={searchOf(newSearch(state, { type }))}
                aria-current={type === state.type ? 'page' : undefined}
              >
                {counts[type] === undefined
                  ? t(`list.tab.${type}`)
                  : t(`list.tab-count.${type}`, { count: counts[type] })}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <ReservationSearchForm state={state} today={today} onSearch={show} />
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/', label: t('back-to-dashboard') }}
      >
        {(page) => (
          <>
            <p className="print-only">
              {t('list.print-filter', {
                from: state.from ? formatDate(state.from) : '–',
                until: state.until ? formatDate(state.until) : '–',
                term: state.term || '–',
              })}
            </p>
            <p className="result-count" role="status">
              {isFetching
                ? t('loading', { ns: 'common' })
                : t(`list.count.${state.type}`, { count: page.totalCount })}
            </p>
            <div className="button-row no-print">
              <button
                type="button"
                className="button button--secondary"
                disabled={print.loading}
                onClick={print.start}
              >
                {t('list.print')}
              </button>
              <a className="button button--secondary" href={csvUrl} download>
                {t('list.csv')}
              </a>
            </div>
            {print.error ? (
              <p className="notice notice--warning no-print" role="alert">
                {t('list.print-failed')}
              </p>
            ) : null}
            {print.rows ? (
              // Print prints every matching row, not only the page on screen.
              <div className="print-only">
                <ReservationTable
                  busy={false}
                  state={state}
                  tickets={print.rows}
                  showActions={false}
                  listSearch={searchParams.toString()}
                  caption={t(`list.caption-all.${state.type}`, { count: print.rows.length })}
                  onSort={() => undefined}
                />
              </div>
            ) : null}
            {page.content.length === 0 ? (
              <EmptyState>{t('empty.no-reservations', { ns: 'common' })}</EmptyState>
            ) : (
              <ReservationTable
                busy={isFetching}
                printHidden={print.rows !== null}
                state={state}
                tickets={page.content}
                showActions={state.type === 'booked' && canEdit}
                listSearch={searchParams.toString()}
                onSort={(column) => show(newSearch(state, { sort: nextSort(state.sort, column) }))}
              />
            )}
            {/* Also on an empty page past the end (e.g. after cancellations), to get back. */}
            {showPager(page.totalCount) ? (
              <ReservationPager state={state} total={page.totalCount} />
            ) : null}
          </>
        )}
      </LoadingContainer>
    </Page>
  );
}

/**
 * The print button's rows: every ticket of the filter (the list shows one page of 20), read when
 * printing is asked for; the browser's print dialog opens once they are on the page. They stay
 * for a later print (Ctrl+P) until the filter, sort or page changes.
 */
function usePrintAll(query: ReturnType<typeof ticketQuery>, key: string) {
  const dispatch = useAppDispatch();
  const [rows, setRows] = useState<{ key: string; rows: Ticket[] } | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState(false);
  const printPending = useRef(false);
  const current = rows?.key === key ? rows.rows : null;

  // The rows are rendered now: open the print dialog.
  useEffect(() => {
    if (!printPending.current || current === null) return;
    printPending.current = false;
    window.print();
  }, [current]);

  const start = () => {
    setError(false);
    if (current !== null) {
      window.print();
      return;
    }
    setLoading(true);
    loadAllTickets(query, (q) =>
      dispatch(
        adminReservationsApi.endpoints.getReservations.initiate(q, { subscribe: false }),
      ).unwrap(),
    )
      .then((all) => {
        printPending.current = true;
        setRows({ key, rows: all });
      })
      .catch(() => setError(true))
      .finally(() => setLoading(false));
  };
  return { rows: current, loading, error, start };
}

/** A tab's count: the shown list's total for the open tab, a one-row query for the others. */
function useTabCount(state: ListState, type: ListType, shownTotal: number | undefined) {
  const open = type === state.type;
  const other = useGetReservationsQuery(countQuery(state, type), { skip: open });
  return open ? shownTotal : other.data?.totalCount;
}
