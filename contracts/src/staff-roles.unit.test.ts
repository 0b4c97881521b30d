import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { fieldErrorOf } from './issues.ts';
import { parseRoleGrant, RoleGrantTexts } from './staff-roles.ts';

describe('staff roles for all sites or one (docs/product.md#roles)', () => {
  it('reads a role alone or with a site’s slug', () => {
    expect(parseRoleGrant('admin')).toEqual({ role: 'admin', site: null });
    expect(parseRoleGrant('checkin@jura')).toEqual({ role: 'checkin', site: 'jura' });
    expect(parseRoleGrant('reports@fach-bib-2')).toEqual({ role: 'reports', site: 'fach-bib-2' });
  });

  it('refuses an unknown role and a malformed slug', () => {
    for (const text of [
      'owner',
      'admin@',
      '@jura',
      'admin@Jura',
      'admin@j',
      'admin@a--b',
      'admin@jura@x',
      'Admin',
    ])
      expect(parseRoleGrant(text), text).toBeNull();
  });

  it('names the rule of each refused role, and of a list empty or twice the same', () => {
    const rules = (v: unknown) =>
      (z.safeParse(RoleGrantTexts, v).error?.issues ?? []).map((i) => [
        i.path.join('.'),
        fieldErrorOf(i).key,
      ]);
    expect(rules(['admin@jura', 'reports'])).toEqual([]);
    expect(rules(['admin', 'owner@jura'])).toEqual([['1', 'staff-role']]);
    expect(rules([])).toEqual([['', 'required']]);
    expect(rules(['admin@jura', 'admin@jura'])).toEqual([['', 'unique']]);
  });
});
