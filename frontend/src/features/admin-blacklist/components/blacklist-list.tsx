import { useRef, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { BlacklistEntry } from '../../../api/types';
import { EmptyState } from '../../../components/empty-state';
import { LoadingContainer } from '../../../components/loading-container';
import { Page } from '../../../components/page';
import { useTranslation } from '../../../i18n/i18n-context';
import { formatDate } from '../../../lib/dates';
import { useGetBlacklistQuery } from '../api/admin-blacklist-api';
import { PencilIcon } from '../../../components/pencil-icon';
import {
  editPath,
  parseSort,
  SORT_COLUMNS,
  sortSpec,
  type BlacklistSort,
  type SortColumn,
} from '../utils/blacklist';
import { ariaSort, nextSort } from '../../../lib/sorting';
import { SortButton } from '../../../components/sort-button';

const SEARCH_ID = 'blacklist-search-term';

/**
 * Route `/blacklist`: searchable, sortable list. Term and sort live in the query parameters
 * (`term`, `sortColumn`, `sortOrder`), so going back from an entry restores the result.
 */
export function BlacklistList() {
  const { t } = useTranslation('admin-blacklist');
  const [searchParams, setSearchParams] = useSearchParams();
  const term = searchParams.get('term')?.trim() ?? '';
  const sort = parseSort({
    sortColumn: searchParams.get('sortColumn'),
    sortOrder: searchParams.get('sortOrder'),
  });
  // `data` keeps the last result while a new sort or search loads: the table (and the focused
  // sort button) stays in place instead of flashing a loading message.
  const { data, error, isFetching } = useGetBlacklistQuery({ term, sort: sortSpec(sort) });

  const show = (next: { term: string; sort: BlacklistSort }) => {
    const params: Record<string, string> = {};
    if (next.term) params.term = next.term;
    params.sortColumn = next.sort.column;
    params.sortOrder = next.sort.order;
    setSearchParams(params);
  };

  return (
    <Page title={t('list.title')}>
      <p>
        <Link className="button button--primary" to="/blacklist-add">
          {t('list.add')}
        </Link>
      </p>
      <SearchForm term={term} onSearch={(next) => show({ term: next, sort })} />
      <LoadingContainer
        data={data}
        error={error}
        backLink={{ to: '/', label: t('back-to-dashboard') }}
      >
        {({ content }) => (
          <>
            <p className="result-count" role="status">
              {isFetching
                ? t('loading', { ns: 'common' })
                : term
                  ? t('list.count-search', { count: content.length, term })
                  : t('list.count', { count: content.length })}
            </p>
            {content.length === 0 ? (
              <EmptyState>{t('empty.no-entries', { ns: 'common' })}</EmptyState>
            ) : (
              <BlacklistTable
                busy={isFetching}
                entries={content}
                sort={sort}
                fromSearch={term !== ''}
                onSort={(column) => show({ term, sort: nextSort(sort, column) })}
              />
            )}
          </>
        )}
      </LoadingContainer>
    </Page>
  );
}

function SearchForm({ term, onSearch }: { term: string; onSearch: (term: string) => void }) {
  const { t } = useTranslation('admin-blacklist');
  const [input, setInput] = useState(term);
  const [shownTerm, setShownTerm] = useState(term);
  const field = useRef<HTMLInputElement>(null);

  // The term changed from outside (back/forward): show it in the box.
  if (term !== shownTerm) {
    setShownTerm(term);
    setInput(term);
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onSearch(input.trim());
  };

  const reset = () => {
    setInput('');
    onSearch('');
    // The reset button disappears with the term: keep focus in the search.
    field.current?.focus();
  };

  return (
    <form
      className="search-form"
      role="search"
      aria-label={t('list.search-label')}
      onSubmit={submit}
    >
      <div className="field search-form__field">
        <label htmlFor={SEARCH_ID} className="field__label">
          {t('list.search')}
        </label>
        <input
          id={SEARCH_ID}
          ref={field}
          type="search"
          className="field__control"
          value={input}
          onChange={(event) => setInput(event.target.value)}
        />
      </div>
      <div className="search-form__actions">
        <button type="submit" className="button button--primary">
          {t('list.search-submit')}
        </button>
        {term ? (
          <button type="button" className="button button--secondary" onClick={reset}>
            {t('list.reset')}
          </button>
        ) : null}
      </div>
    </form>
  );
}

interface BlacklistTableProps {
  busy: boolean;
  entries: BlacklistEntry[];
  sort: BlacklistSort;
  fromSearch: boolean;
  onSort: (column: SortColumn) => void;
}

function BlacklistTable({ busy, entries, sort, fromSearch, onSort }: BlacklistTableProps) {
  const { t } = useTranslation('admin-blacklist');
  return (
    <div className="table-wrap" aria-busy={busy || undefined}>
      <table className="data-table">
        <caption className="visually-hidden">{t('list.caption')}</caption>
        <thead>
          <tr>
            {SORT_COLUMNS.map((column) => {
              const direction = ariaSort(sort, column);
              return (
                <th key={column} scope="col" aria-sort={direction}>
                  <SortButton
                    label={t(`list.column.${column}`)}
                    direction={direction}
                    onClick={() => onSort(column)}
                  />
                </th>
              );
            })}
            <th scope="col">{t('list.column.actions')}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.email}>
              <td className="data-table__break">{entry.email}</td>
              <td className="data-table__nowrap">{formatDate(entry.expiredAt)}</td>
              <td>{entry.description}</td>
              <td>
                <Link className="icon-link" to={editPath(entry.email, fromSearch)}>
                  <PencilIcon />
                  <span className="visually-hidden">{t('list.edit', { email: entry.email })}</span>
                </Link>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
