import { describe, expect, it } from 'vitest';
import { redactedSendError } from './redact.ts';

describe('redactedSendError', () => {
  it('keeps the codes and drops the recipient address of an SMTP rejection', () => {
    const err = Object.assign(
      new Error(
        "Can't send mail - all recipients were rejected: 550 <reject.me@example.org> Recipient address rejected",
      ),
      { code: 'EENVELOPE', responseCode: 550, command: 'RCPT TO' },
    );
    const text = redactedSendError(err, ['reject.me@example.org', 'Eleonore', 'Quirinstaller']);
    expect(text).toBe(
      "EENVELOPE 550 RCPT TO: Can't send mail - all recipients were rejected: 550 <<address>> Recipient address rejected",
    );
  });

  it('drops the given names wherever a reply quotes them, in any case', () => {
    const err = Object.assign(new Error('554 message of ELEONORE Quirinstaller refused'), {
      responseCode: 554,
    });
    const text = redactedSendError(err, ['Eleonore', 'Quirinstaller', null, '']);
    expect(text.toLowerCase()).not.toMatch(/eleonore|quirinstaller/);
    expect(text).toContain('554');
  });

  it('redacts addresses without a given list, and non-errors', () => {
    expect(redactedSendError('mailbox a.b@c.example: unavailable', [])).toBe(
      'mailbox <address>: unavailable',
    );
    expect(redactedSendError(new Error('connect ETIMEDOUT'), [])).toBe('connect ETIMEDOUT');
  });
});
