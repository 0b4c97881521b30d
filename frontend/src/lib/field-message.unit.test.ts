import { describe, expect, it } from 'vitest';
import { createI18n } from '../i18n/i18n';
import { fieldMessage } from './field-message';

const REQUIRED = 'Please fill in this field.';

describe('fieldMessage', () => {
  it('says a length limit in its plural form, in German and English', async () => {
    const german = await createI18n({ language: 'de', labelOverride: {}, interface: 'user' });
    const english = await createI18n({ language: 'en', labelOverride: {}, interface: 'user' });
    const max = (n: number) => ({ key: 'max-length' as const, params: { max: n } });
    expect(fieldMessage(german.t, max(1))).toBe('Es ist höchstens 1 Zeichen erlaubt.');
    expect(fieldMessage(german.t, max(40))).toBe('Es sind höchstens 40 Zeichen erlaubt.');
    expect(fieldMessage(english.t, max(1))).toBe('At most 1 character is allowed.');
    expect(fieldMessage(english.t, max(40))).toBe('At most 40 characters are allowed.');
    expect(fieldMessage(english.t, { key: 'min-length', params: { min: 3 } })).toBe(
      'Please enter at least 3 characters.',
    );
    expect(fieldMessage(english.t, { key: 'required' })).toBe(REQUIRED);
  });
});
