import { describe, expect, it } from 'vitest';
import {
  countQuery,
  cutRoomName,
  DEFAULT_SORT,
  defaultListState,
  listStateToParams,
  newSearch,
  parseListState,
  searchOf,
  showReset,
  ticketFilter,
  ticketQuery,
  type ListState,
} from './reservation-list';
import { ariaSort, nextSort } from '../../../lib/sorting';

const today = '2026-03-05';
const params = (query: string) => new URLSearchParams(query);

describe('cutRoomName', () => {
  it('keeps names of up to 18 characters', () => {
    expect(cutRoomName('Großer Lesesaal')).toBe('Großer Lesesaal');
    expect(cutRoomName('x'.repeat(18))).toBe('x'.repeat(18));
    expect(cutRoomName('')).toBe('');
  });

  it("cuts longer names at 18 characters and appends ' ...'", () => {
    expect(cutRoomName('x'.repeat(19))).toBe(`${'x'.repeat(18)} ...`);
    expect(cutRoomName('Lesesaal der Handschriftensammlung')).toBe('Lesesaal der Hands ...');
  });

  it('counts characters, not UTF-16 units', () => {
    expect(cutRoomName('😀'.repeat(18))).toBe('😀'.repeat(18));
    expect(cutRoomName('😀'.repeat(19))).toBe(`${'😀'.repeat(18)} ...`);
  });
});

describe('list state in the address', () => {
  it('defaults to booked tickets from today, sorted by date and time ascending, first page', () => {
    expect(parseListState(params(''), today)).toEqual(defaultListState(today));
    expect(defaultListState(today)).toEqual({
      type: 'booked',
      from: today,
      until: '',
      term: '',
      sort: { column: 'date', order: 'ASC' },
      offset: 0,
    });
  });

  it('reads every parameter', () => {
    const state = parseListState(
      params(
        'searchType=cancelled&searchFrom=2026-01-01&searchUntil=2026-02-01&sortColumn=email&sortOrder=DESC&offset=40&searchTerm=%20Huber%20',
      ),
      today,
    );
    expect(state).toEqual({
      type: 'cancelled',
      from: '2026-01-01',
      until: '2026-02-01',
      term: 'Huber',
      sort: { column: 'email', order: 'DESC' },
      offset: 40,
    });
  });

  it('treats an empty searchFrom as no lower bound, a missing one as today', () => {
    expect(parseListState(params('searchFrom='), today).from).toBe('');
    expect(parseListState(params('searchType=booked'), today).from).toBe(today);
  });

  it('falls back to the defaults for invalid values', () => {
    const state = parseListState(
      params(
        'searchType=all&searchFrom=2026-02-30&searchUntil=soon&sortColumn=phone&sortOrder=UP&offset=-5',
      ),
      today,
    );
    expect(state).toEqual(defaultListState(today));
    expect(parseListState(params('offset=abc'), today).offset).toBe(0);
  });

  it('writes parameters that read back to the same state', () => {
    const states: ListState[] = [
      defaultListState(today),
      {
        type: 'cancelled',
        from: '',
        until: '2026-12-31',
        term: 'Müller & Söhne',
        sort: { column: 'date', order: 'DESC' },
        offset: 60,
      },
    ];
    for (const state of states) {
      const written = new URLSearchParams(listStateToParams(state));
      expect(parseListState(written, today)).toEqual(state);
    }
  });

  it('links a state by its parameters', () => {
    const state: ListState = { ...defaultListState(today), term: 'a b', offset: 20 };
    expect(searchOf(state)).toBe(`?${new URLSearchParams(listStateToParams(state))}`);
    expect(parseListState(params(searchOf(state).slice(1)), today)).toEqual(state);
  });

  it('uses the parameter names of the spec', () => {
    expect(
      listStateToParams({
        type: 'booked',
        from: today,
        until: '2026-04-01',
        term: 'x',
        sort: DEFAULT_SORT,
        offset: 20,
      }),
    ).toEqual({
      searchType: 'booked',
      searchFrom: today,
      searchUntil: '2026-04-01',
      searchTerm: 'x',
      sortColumn: 'date',
      sortOrder: 'ASC',
      offset: '20',
    });
  });
});

describe('searching', () => {
  const onPage3: ListState = { ...defaultListState(today), offset: 40 };

  it('resets the offset for a new tab, filter or sort', () => {
    expect(newSearch(onPage3, { type: 'cancelled' })).toMatchObject({
      type: 'cancelled',
      offset: 0,
    });
    expect(newSearch(onPage3, { term: 'Huber' }).offset).toBe(0);
    expect(newSearch(onPage3, { sort: { column: 'room', order: 'ASC' } }).offset).toBe(0);
  });

  it('shows the reset button only when from is not today, or an until date or term is set', () => {
    const base = defaultListState(today);
    expect(showReset(base, today)).toBe(false);
    expect(showReset({ ...base, type: 'cancelled', offset: 20 }, today)).toBe(false);
    expect(showReset({ ...base, from: '2026-03-04' }, today)).toBe(true);
    expect(showReset({ ...base, from: '' }, today)).toBe(true);
    expect(showReset({ ...base, until: '2026-03-31' }, today)).toBe(true);
    expect(showReset({ ...base, term: 'a' }, today)).toBe(true);
  });

  it('toggles the active column and starts another one ascending', () => {
    expect(nextSort(DEFAULT_SORT, 'date')).toEqual({ column: 'date', order: 'DESC' });
    expect(nextSort(DEFAULT_SORT, 'name')).toEqual({ column: 'name', order: 'ASC' });
    expect(nextSort({ column: 'name', order: 'DESC' }, 'name')).toEqual({
      column: 'name',
      order: 'ASC',
    });
    expect(nextSort({ column: 'name', order: 'DESC' }, 'date')).toEqual({
      column: 'date',
      order: 'ASC',
    });
  });

  it('marks only the sorted column with aria-sort', () => {
    expect(ariaSort(DEFAULT_SORT, 'date')).toBe('ascending');
    expect(ariaSort({ column: 'email', order: 'DESC' }, 'email')).toBe('descending');
    expect(ariaSort(DEFAULT_SORT, 'room')).toBeUndefined();
  });

  it('asks the API for booked tickets without status and cancelled ones with CANCELED_ONLY', () => {
    const base = defaultListState(today);
    expect(ticketQuery(base)).toEqual({
      fromDate: today,
      sort: 'date:ASC,name:ASC',
      limit: 20,
      offset: 0,
    });
    const cancelled: ListState = {
      ...base,
      type: 'cancelled',
      from: '',
      until: '2026-04-01',
      term: 'Huber',
      sort: { column: 'institution', order: 'DESC' },
      offset: 20,
    };
    expect(ticketQuery(cancelled)).toEqual({
      status: 'CANCELED_ONLY',
      untilDate: '2026-04-01',
      searchTerm: 'Huber',
      sort: 'institution:DESC',
      limit: 20,
      offset: 20,
    });
    expect(ticketFilter(cancelled, 'booked')).not.toHaveProperty('status');
    // The no-show tab asks for the tickets released as no-shows.
    expect(ticketFilter(cancelled, 'no-show')).toMatchObject({ status: 'NO_SHOW' });
    expect(parseListState(new URLSearchParams('searchType=no-show'), today).type).toBe('no-show');
    expect(parseListState(new URLSearchParams('searchType=other'), today).type).toBe('booked');
    expect(countQuery(cancelled, 'booked')).toMatchObject({ limit: 1, offset: 0 });
  });
});
