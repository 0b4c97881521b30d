import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './email.ts';

describe('e-mail normalisation', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Anna.Muster@Example.AT ')).toBe('anna.muster@example.at');
  });
});
