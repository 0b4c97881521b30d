import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import type { Ticket } from '../../../api/types';
import { useConfig } from '../../../app/config-context';
import { EmptyState } from '../../../components/empty-state';
import { InputField } from '../../../components/form-field';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useValidatedForm } from '../../../hooks/use-validated-form';
import { formatDate, formatTimeRange, todayIso } from '../../../lib/dates';
import { resolveApiUrl, serializeParams } from '../../../lib/url';
import { useGetReservationsQuery } from '../api/admin-reservations-api';
import { ownerName } from '../utils/owner-form';
import { offsetOfPage, pageCount, pageOf, pagerItems, showPager } from '../utils/pager';
import { editPath, fromList } from '../utils/paths';
import { PencilIcon } from '../../../components/pencil-icon';
import {
  ariaSort,
  checkSearchForm,
  countQuery,
  cutRoomName,
  LIST_TYPES,
  listStateToParams,
  newSearch,
  nextSort,
  parseListState,
  SEARCH_FIELDS,
  showReset,
  SORT_COLUMNS,
  ticketFilter,
  ticketQuery,
  type ListState,
  type ListType,
  type SearchField,
  type SortColumn,
} from '../utils/reservation-list';

const search = (state: ListState) => `?${new URLSearchParams(listStateToParams(state))}`;

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
  const other: ListType = state.type === 'booked' ? 'cancelled' : 'booked';
  // `data` keeps the last result while a new page or sort loads: the table stays in place.
  const { data, error, isFetching } = useGetReservationsQuery(ticketQuery(state));
  const otherCount = useGetReservationsQuery(countQuery(state, other)).data?.totalCount;
  const counts: Record<ListType, number | undefined> = {
    booked: state.type === 'booked' ? data?.totalCount : otherCount,
    cancelled: state.type === 'cancelled' ? data?.totalCount : otherCount,
  };
  const show = (next: ListState) => setSearchParams(listStateToParams(next));
  const csvUrl = resolveApiUrl(
    baseApiUrl,
    `admin/tickets/export.csv?${serializeParams({ ...ticketFilter(state) })}`,
  );

  return (
    <Page title={t('list.title')}>
      <nav className="tabs no-print" aria-label={t('list.tabs-label')}>
        <ul className="tabs__list">
          {LIST_TYPES.map((type) => (
            <li key={type}>
              <Link
                className="tabs__tab"
                to={search(newSearch(state, { type }))}
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
      <SearchForm state={state} today={today} onSearch={show} />
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
                onClick={() => window.print()}
              >
                {t('list.print')}
              </button>
              <a className="button button--secondary" href={csvUrl} download>
                {t('list.csv')}
              </a>
            </div>
            {page.content.length === 0 ? (
              <EmptyState>{t('empty.no-reservations', { ns: 'common' })}</EmptyState>
            ) : (
              <ReservationTable
                busy={isFetching}
                state={state}
                tickets={page.content}
                showActions={state.type === 'booked' && canEdit}
                listSearch={searchParams.toString()}
                onSort={(column) => show(newSearch(state, { sort: nextSort(state.sort, column) }))}
              />
            )}
            {/* Also on an empty page past the end (e.g. after cancellations), to get back. */}
            {showPager(page.totalCount) ? <Pager state={state} total={page.totalCount} /> : null}
          </>
        )}
      </LoadingContainer>
    </Page>
  );
}

type FilterField = SearchField;
const filterId = (field: FilterField) => `reservations-${field}`;

interface SearchFormProps {
  state: ListState;
  today: string;
  onSearch: (next: ListState) => void;
}

function SearchForm({ state, today, onSearch }: SearchFormProps) {
  const { t } = useTranslation('admin-reservations');
  const current = { from: state.from, until: state.until, term: state.term };
  const [values, setValues] = useState<Record<FilterField, string>>(current);
  const [shown, setShown] = useState(current);
  const form = useValidatedForm(checkSearchForm, SEARCH_FIELDS, filterId);

  // The filters changed from outside (back/forward, tab links): show them in the form.
  if (shown.from !== state.from || shown.until !== state.until || shown.term !== state.term) {
    setShown(current);
    setValues(current);
  }

  const change = (field: FilterField, value: string) => {
    const next = { ...values, [field]: value };
    setValues(next);
    form.revalidate(next);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.validate(values)) return;
    onSearch(
      newSearch(state, {
        from: values.from.trim(),
        until: values.until.trim(),
        term: values.term.trim(),
      }),
    );
  };

  const reset = () => {
    onSearch(newSearch(state, { from: today, until: '', term: '' }));
    // The reset button disappears: keep focus in the search.
    document.getElementById(filterId('from'))?.focus();
  };

  return (
    <form
      className="search-form no-print"
      role="search"
      aria-label={t('list.search-label')}
      noValidate
      onSubmit={submit}
    >
      <div className="search-form__field search-form__field--date">
        <InputField
          id={filterId('from')}
          type="date"
          label={t('list.from')}
          value={values.from}
          error={form.messageOf('from')}
          onChange={(event) => change('from', event.target.value)}
        />
      </div>
      <div className="search-form__field search-form__field--date">
        <InputField
          id={filterId('until')}
          type="date"
          label={t('list.until')}
          value={values.until}
          error={form.messageOf('until')}
          onChange={(event) => change('until', event.target.value)}
        />
      </div>
      <div className="search-form__field">
        <InputField
          id={filterId('term')}
          type="search"
          label={t('list.term')}
          hint={t('list.term-hint')}
          value={values.term}
          error={form.messageOf('term')}
          onChange={(event) => change('term', event.target.value)}
        />
      </div>
      <div className="search-form__actions">
        <button type="submit" className="button button--primary">
          {t('list.search-submit')}
        </button>
        {showReset(state, today) ? (
          <button type="button" className="button button--secondary" onClick={reset}>
            {t('list.reset')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

interface ReservationTableProps {
  busy: boolean;
  state: ListState;
  tickets: Ticket[];
  showActions: boolean;
  listSearch: string;
  onSort: (column: SortColumn) => void;
}

function ReservationTable({
  busy,
  state,
  tickets,
  showActions,
  listSearch,
  onSort,
}: ReservationTableProps) {
  const { t } = useTranslation('admin-reservations');
  return (
    <div className="table-wrap" aria-busy={busy || undefined}>
      <table className="data-table reservation-table">
        <caption className="visually-hidden">
          {t(`list.caption.${state.type}`, {
            page: pageOf(state.offset),
          })}
        </caption>
        <thead>
          <tr>
            {SORT_COLUMNS.map((column) => {
              const direction = ariaSort(state.sort, column);
              return (
                <th key={column} scope="col" aria-sort={direction}>
                  <button type="button" className="sort-button" onClick={() => onSort(column)}>
                    {t(`list.column.${column}`)}
                    <span className="sort-button__icon" aria-hidden="true">
                      {direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
                    </span>
                  </button>
                  <span className="print-only">{t(`list.column.${column}`)}</span>
                </th>
              );
            })}
            {showActions ? (
              <th scope="col" className="no-print">
                {t('list.column.actions')}
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody>
          {tickets.map((ticket) => {
            const name = ownerName(ticket);
            const room = cutRoomName(ticket.roomName);
            return (
              <tr key={ticket.id}>
                <td>
                  {room === ticket.roomName ? (
                    room
                  ) : (
                    <>
                      <span aria-hidden="true" title={ticket.roomName}>
                        {room}
                      </span>
                      <span className="visually-hidden">{ticket.roomName}</span>
                    </>
                  )}
                </td>
                <td>{name ?? <span className="muted">{t('erased')}</span>}</td>
                <td>{ticket.organisation}</td>
                <td className="data-table__break">{ticket.email}</td>
                <td className="data-table__nowrap">
                  {formatDate(ticket.date)} {formatTimeRange(ticket.startTime, ticket.endTime)}
                </td>
                {showActions ? (
                  <td className="no-print">
                    {ticket.status === 'BOOKED' ? (
                      <Link
                        className="icon-link"
                        to={editPath(ticket.id)}
                        state={fromList(listSearch)}
                      >
                        <PencilIcon />
                        <span className="visually-hidden">
                          {t('list.edit', {
                            name: name ?? t('erased'),
                            date: formatDate(ticket.date),
                          })}
                        </span>
                      </Link>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Pager({ state, total }: { state: ListState; total: number }) {
  const { t } = useTranslation('admin-reservations');
  const current = pageOf(state.offset);
  const count = pageCount(total);
  const at = (page: number) => search({ ...state, offset: offsetOfPage(page) });
  return (
    <nav className="pager no-print" aria-label={t('pager.label')}>
      <ul className="pager__list">
        <li>
          {current > 1 ? (
            <Link className="pager__link" to={at(current - 1)}>
              <span aria-hidden="true">‹ </span>
              {t('pager.previous')}
            </Link>
          ) : null}
        </li>
        {pagerItems(current, count).map((item, index) =>
          item === 'gap' ? (
            <li key={`gap-${index}`} className="pager__gap" aria-hidden="true">
              …
            </li>
          ) : (
            <li key={item}>
              <Link
                className="pager__link"
                to={at(item)}
                aria-current={item === current ? 'page' : undefined}
                aria-label={t('pager.page', { page: item, count })}
              >
                {item}
              </Link>
            </li>
          ),
        )}
        <li>
          {current < count ? (
            <Link className="pager__link" to={at(current + 1)}>
              {t('pager.next')}
              <span aria-hidden="true"> ›</span>
            </Link>
          ) : null}
        </li>
      </ul>
    </nav>
  );
}
