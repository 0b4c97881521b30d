import { describe, expect, it } from 'vitest';
import de from '../../../i18n/visitor-account.de.json';
import en from '../../../i18n/visitor-account.en.json';
import { claimedData } from './visitor-account';

describe('the personal data the campus identity supplies', () => {
  it('fills the address and a name of two words or more, split at its last word', () => {
    expect(claimedData({ name: 'Sam Student', email: 'sam@uni-x.de' })).toEqual({
      email: 'sam@uni-x.de',
      firstName: 'Sam',
      lastName: 'Student',
    });
    expect(claimedData({ name: ' Anna Maria  Muster ', email: null })).toEqual({
      firstName: 'Anna Maria',
      lastName: 'Muster',
    });
  });

  it('leaves what the claims do not supply to the visitor', () => {
    expect(claimedData({ name: 'Prince', email: null })).toEqual({});
    expect(claimedData({ name: null, email: null })).toEqual({});
  });

  it('has its texts in German and English', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(de).sort());
    expect(de['sign-in']).toBe('Mit Hochschulkonto anmelden');
    expect(en['sign-in']).toBe('Sign in with campus account');
    expect(de.members).toBe('Für Angehörige der Universität');
  });
});
