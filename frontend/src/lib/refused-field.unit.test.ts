import { describe, expect, it } from 'vitest';
import { refusedFieldOf } from './refused-field';

/** A refusal as RTK Query hands it to a form: the status and the problem body. */
const refusal = (body: Record<string, unknown>) => ({ status: 403, data: body });

describe('refusedFieldOf', () => {
  it('names the e-mail field for every refusal of an address', () => {
    for (const error of [
      'booking__email_domain_not_allowed',
      'booking__email_blacklisted',
      'booking__no_show_blocked',
      'waitlist__already_joined',
      'blacklist__email_already_exists',
    ])
      expect(refusedFieldOf(refusal({ error, payload: [] }))).toBe('email');
    expect(
      refusedFieldOf(
        refusal({ error: 'booking__email_domain_not_allowed', payload: ['domains', 'uni.at'] }),
      ),
    ).toBe('email');
  });

  it('names the fields of names, times and files taken or refused', () => {
    expect(refusedFieldOf(refusal({ error: 'room__already_exists' }))).toBe('name');
    expect(refusedFieldOf(refusal({ error: 'timeslot__overlapping' }))).toBe('startTime');
    expect(refusedFieldOf(refusal({ error: 'image__too_large' }))).toBe('image');
    expect(refusedFieldOf(refusal({ error: 'calendar__invalid_file' }))).toBe('file');
    expect(refusedFieldOf(refusal({ error: 'auth__invalid_credentials' }))).toBe('password');
  });

  it("takes the server's own check's first field, by its last path segment", () => {
    const invalid = (field: string) =>
      refusal({ error: 'validation__error', payload: [], errors: [{ field, rule: 'email' }] });
    expect(refusedFieldOf(invalid('owner.email'))).toBe('email');
    expect(refusedFieldOf(invalid('email'))).toBe('email');
    // A field no form is told about marks none.
    expect(refusedFieldOf(invalid('owner.phone'))).toBeNull();
  });

  it('marks no field for a refusal of a slot or a cart, or a failure without a code', () => {
    expect(
      refusedFieldOf(
        refusal({ error: 'ticket__validation_error', payload: ['timeslot_no_tickets_left'] }),
      ),
    ).toBeNull();
    expect(refusedFieldOf(refusal({ error: 'transaction__expired' }))).toBeNull();
    expect(refusedFieldOf({ status: 'FETCH_ERROR', error: 'TypeError' })).toBeNull();
    expect(refusedFieldOf(null)).toBeNull();
  });
});
