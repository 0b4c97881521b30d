import { describe, expect, it } from 'vitest';
import type { Checked } from '@rr/contracts/issues';
import { errorsOf } from '../../../lib/form-check';
import {
  addFormDefaults,
  checkAddForm,
  checkEditForm,
  DEFAULT_SORT,
  editPath,
  entryToEditValues,
  parseSort,
  sortSpec,
} from './blacklist';
import { ariaSort, nextSort } from '../../../lib/sorting';

const today = '2026-03-05';
const addErrors = (values: Parameters<ReturnType<typeof checkAddForm>>[0]) =>
  errorsOf(checkAddForm(today)(values));
function bodyOf<T>(result: Checked<T>): T {
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.data;
}

describe('blacklist forms', () => {
  it('expires in one year by default', () => {
    expect(addFormDefaults(today)).toEqual({
      email: '',
      expiredAt: '2027-03-05',
      description: '',
    });
    expect(addErrors({ ...addFormDefaults(today), email: 'a@b.at' })).toEqual({});
  });

  it('checks email, expiry in the future and description (docs/product.md#validation)', () => {
    expect(
      addErrors({ email: 'no-address', expiredAt: today, description: 'x'.repeat(251) }),
    ).toEqual({
      email: { key: 'email' },
      expiredAt: { key: 'date-future' },
      description: { key: 'max-length', params: { max: 250 } },
    });
    // 320 characters are allowed, 321 are not.
    const local = (length: number) => 'a'.repeat(length - '@b.at'.length);
    expect(addErrors({ email: `${local(321)}@b.at`, expiredAt: '', description: '' })).toEqual({
      email: { key: 'max-length', params: { max: 320 } },
      expiredAt: { key: 'required' },
    });
    expect(
      addErrors({ email: `${local(320)}@b.at`, expiredAt: '2026-03-06', description: '' }),
    ).toEqual({});
    expect(errorsOf(checkEditForm(today)({ expiredAt: '05.03.2027', description: '' }))).toEqual({
      expiredAt: { key: 'date' },
    });
  });

  it('builds the payloads, leaving out an empty description', () => {
    expect(
      bodyOf(checkAddForm(today)({ email: ' a@b.at ', expiredAt: '2027-01-01', description: ' ' })),
    ).toEqual({ email: 'a@b.at', expiredAt: '2027-01-01' });
    expect(
      bodyOf(checkEditForm(today)({ expiredAt: '2027-01-01', description: ' No-shows ' })),
    ).toEqual({
      expiredAt: '2027-01-01',
      description: 'No-shows',
    });
    expect(entryToEditValues({ email: 'a@b.at', expiredAt: '2027-01-01', version: 1 })).toEqual({
      expiredAt: '2027-01-01',
      description: '',
    });
  });
});

describe('blacklist sort', () => {
  it('defaults to email ascending and reads valid query parameters', () => {
    expect(parseSort({ sortColumn: null, sortOrder: null })).toEqual(DEFAULT_SORT);
    expect(parseSort({ sortColumn: 'expiredAt', sortOrder: 'DESC' })).toEqual({
      column: 'expiredAt',
      order: 'DESC',
    });
    expect(parseSort({ sortColumn: 'secret', sortOrder: 'sideways' })).toEqual(DEFAULT_SORT);
  });

  it('toggles the active column and starts another one ascending', () => {
    expect(nextSort(DEFAULT_SORT, 'email')).toEqual({ column: 'email', order: 'DESC' });
    expect(nextSort({ column: 'email', order: 'DESC' }, 'email')).toEqual(DEFAULT_SORT);
    expect(nextSort({ column: 'email', order: 'DESC' }, 'description')).toEqual({
      column: 'description',
      order: 'ASC',
    });
  });

  it('gives the API sort spec and aria-sort', () => {
    expect(sortSpec({ column: 'expiredAt', order: 'DESC' })).toBe('expiredAt:DESC');
    expect(ariaSort(DEFAULT_SORT, 'email')).toBe('ascending');
    expect(ariaSort({ column: 'email', order: 'DESC' }, 'email')).toBe('descending');
    expect(ariaSort(DEFAULT_SORT, 'description')).toBeUndefined();
  });

  it('links to the edit page with the address encoded', () => {
    expect(editPath('a+b@example.org', false)).toBe('/blacklist-edit/a%2Bb%40example.org');
    expect(editPath('a@b.at', true)).toBe('/blacklist-edit/a%40b.at?fromSearch=y');
  });
});
