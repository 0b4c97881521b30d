import { describe, expect, it } from 'vitest';
import { emailKeyForm, normalizeEmail } from './email.ts';

describe('e-mail normalisation', () => {
  it('trims and lower-cases', () => {
    expect(normalizeEmail('  Anna.Muster@Example.AT ')).toBe('anna.muster@example.at');
  });
});

describe('the form an address is keyed by', () => {
  it('drops the sub-address and the case', () => {
    expect(emailKeyForm(' Blocked.Reader+tag@Uni.example ')).toBe('blocked.reader@uni.example');
    expect(emailKeyForm('a+b+c@x.at')).toBe('a@x.at');
  });

  it('keeps the dots of providers that deliver them', () => {
    expect(emailKeyForm('anna.muster@example.at')).toBe('anna.muster@example.at');
    expect(emailKeyForm('anna.muster@mail.gmail.com')).toBe('anna.muster@mail.gmail.com');
  });

  it('drops the dots at gmail.com and googlemail.com, one mailbox for both', () => {
    expect(emailKeyForm('Anna.Muster+x@gmail.com')).toBe('annamuster@gmail.com');
    expect(emailKeyForm('a.n.n.a.muster@googlemail.com')).toBe('annamuster@gmail.com');
  });

  it('leaves what has no local part to fold as it is', () => {
    expect(emailKeyForm('+tag@x.at')).toBe('+tag@x.at');
    expect(emailKeyForm('...@gmail.com')).toBe('...@gmail.com');
    expect(emailKeyForm('no-at-sign')).toBe('no-at-sign');
  });
});
