import { describe, expect, it } from 'vitest';
import { roleGrantsOf, siteSlugsFor, staffUserOf } from './access.ts';

describe('the staff user of stored roles (docs/product.md#roles)', () => {
  it('holds a role for all sites, or for the sites its slugs name', () => {
    const user = staffUserOf('jura', ['admin@jura', 'checkin@recht', 'checkin@jura', 'reports']);
    expect(user).toEqual({
      username: 'jura',
      roles: ['admin', 'checkin', 'reports'],
      sites: { admin: ['jura'], checkin: ['jura', 'recht'] },
    });
    expect(roleGrantsOf(user)).toEqual(['admin@jura', 'checkin@jura', 'checkin@recht', 'reports']);
  });

  it('holds a role given for all sites and for some for all; leaves out what is no role', () => {
    const user = staffUserOf('x', ['admin@jura', 'admin', 'owner', 'admin@Jura']);
    expect(user).toEqual({ username: 'x', roles: ['admin'] });
    expect(roleGrantsOf(user)).toEqual(['admin']);
  });

  it('reaches every site on a route when one of its roles there is for all sites', () => {
    const user = staffUserOf('x', ['admin@jura', 'reports', 'checkin@recht']);
    expect(siteSlugsFor(['admin'], user)).toEqual(['jura']);
    expect(siteSlugsFor(['admin', 'reports'], user)).toBeNull();
    expect(siteSlugsFor(['admin', 'checkin'], user)).toEqual(['jura', 'recht']);
  });
});
