import { describe, expect, it } from 'vitest';
import { emailKey, normalizeEmail } from './email.ts';

describe('e-mail normalisation', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Anna.Muster@Example.AT ')).toBe('anna.muster@example.at');
  });
  it('gives equal keys to equal addresses, different keys to different ones and secrets', () => {
    expect(emailKey('s', 'A@b.at ')).toBe(emailKey('s', 'a@B.AT'));
    expect(emailKey('s', 'a@b.at')).not.toBe(emailKey('s', 'c@b.at'));
    expect(emailKey('s', 'a@b.at')).not.toBe(emailKey('t', 'a@b.at'));
    expect(emailKey('s', 'a@b.at')).not.toContain('a@b.at');
  });
});
