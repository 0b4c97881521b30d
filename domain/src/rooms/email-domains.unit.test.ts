import { describe, expect, it } from 'vitest';
import { NO_ROOM_SERVICES } from '@rr/contracts/rooms';
import { Refused } from '../refusal.ts';
import { emailDomainOf, mustAdmitAddress } from './email-domains.ts';

const members = {
  services: { ...NO_ROOM_SERVICES, allowedEmailDomains: ['uibk.ac.at', 'student.uibk.ac.at'] },
};
const everyone = { services: NO_ROOM_SERVICES };

function refusalOf(run: () => void): unknown {
  try {
    run();
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
  return null;
}

describe('members-only rooms', () => {
  it('take the domain after the last @, lower-cased', () => {
    expect(emailDomainOf(' Anna@Student.UIBK.ac.at ')).toBe('student.uibk.ac.at');
    expect(emailDomainOf('"a@b"@uibk.ac.at')).toBe('uibk.ac.at');
  });

  it('admit every address where no domains are listed', () => {
    expect(refusalOf(() => mustAdmitAddress([everyone], 'gmail.com'))).toBeNull();
    expect(refusalOf(() => mustAdmitAddress([everyone], undefined))).toBeNull();
  });

  it('admit the listed domains exactly, and refuse others naming the domains', () => {
    expect(refusalOf(() => mustAdmitAddress([everyone, members], 'student.uibk.ac.at'))).toBeNull();
    for (const domain of ['gmail.com', 'informatik.uibk.ac.at', 'ac.at', undefined])
      expect(refusalOf(() => mustAdmitAddress([everyone, members], domain))).toEqual({
        code: 'booking__email_domain_not_allowed',
        domains: ['uibk.ac.at', 'student.uibk.ac.at'],
      });
  });
});
