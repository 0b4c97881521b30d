import { describe, expect, it } from 'vitest';
import { roleGrantLabel } from './role-grants';

describe('a role as staff read it', () => {
  const text = (role: string) => ({ admin: 'Administration', checkin: 'Check-in' })[role] ?? role;

  it('names the role, and the site of a role for one site', () => {
    expect(roleGrantLabel('admin', text)).toBe('Administration');
    expect(roleGrantLabel('checkin@jura', text)).toBe('Check-in (jura)');
    expect(roleGrantLabel('owner', text)).toBe('owner');
  });
});
