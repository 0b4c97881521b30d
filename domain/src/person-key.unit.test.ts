import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VisitorTicketsBooked, WaitlistJoined } from '@rr/events/catalogue';
import { cartRules } from './cart-rules.ts';
import { emailKeyForm } from './email.ts';
import { mustNotBeNoShowBlocked } from './no-show-rule.ts';
import { limitsKeyOf, subjectKeyForm, type PersonKeys } from './person-key.ts';
import { evolveVisitor, initialVisitor, type VisitorState } from './reservations/cart.ts';
import { bookedSeats } from './cart-rules.ts';
import { evolveWaitlist } from './waitlist-line.ts';
import { Refused } from './refusal.ts';

/**
 * One person, one set of limits (docs/product.md#one-person-one-set-of-limits): the per-visitor
 * limits count a signed-in visitor by their subject (with its issuer), whatever address they
 * give, and a guest by the address's key; a guest never shares a subject's counts.
 */

const TODAY = '2026-12-07';
const DAYS = ['2026-12-07', '2026-12-08', '2026-12-09'];
const limits = { maxCartTickets: 5, maxTicketsPerDay: 2, maxTicketsPerVisitor: 4 };

/** Stand-ins for the keyed hashes (platform/src/email-key.ts): the forms themselves. */
const keysOf = (a: Attempt): PersonKeys => ({
  visitorKey: emailKeyForm(`reader${a.address}@uni.example`),
  ...(a.subject ? { subjectKey: subjectKeyForm(`${a.subject.issuer}!${a.subject.sub}`) } : {}),
});

interface Attempt {
  address: number;
  subject: { issuer: string; sub: string } | null;
  day: number;
}

const attempt: fc.Arbitrary<Attempt> = fc.record({
  address: fc.integer({ min: 0, max: 2 }),
  subject: fc.option(
    fc.record({
      issuer: fc.constantFrom('https://idp.uni.example', 'https://idp.partner.example'),
      sub: fc.constantFrom('s1', 's2'),
    }),
  ),
  day: fc.integer({ min: 0, max: 2 }),
});

/** Whom the product's rule calls one person: one subject of one issuer, or a guest's address. */
const samePerson = (a: Attempt, b: Attempt): boolean =>
  a.subject && b.subject
    ? a.subject.issuer === b.subject.issuer && a.subject.sub === b.subject.sub
    : !a.subject && !b.subject && a.address === b.address;

describe('one person, one set of limits', () => {
  it('counts every booking for the person the rule names, and refuses past the limits as a model would', () => {
    fc.assert(
      fc.property(fc.array(attempt, { maxLength: 25 }), (attempts) => {
        // The visitor streams, each folded from its own events, as the loader reads them.
        const streams = new Map<string, VisitorState>();
        const accepted: Attempt[] = [];
        attempts.forEach((a, i) => {
          const key = limitsKeyOf(keysOf(a));
          const stream = streams.get(key) ?? initialVisitor;
          // Slots that never overlap: the per-day and total limits alone decide.
          const startTime = `${String(6 + Math.floor(i / 2)).padStart(2, '0')}:${i % 2 ? '30' : '00'}`;
          const endTime = `${String(6 + Math.floor((i + 1) / 2)).padStart(2, '0')}:${(i + 1) % 2 ? '30' : '00'}`;
          const slot = { timeSlotId: `slot-${i}`, date: DAYS[a.day]!, startTime, endTime };
          const refused = cartRules(bookedSeats(stream, TODAY), slot, limits);
          const mine = accepted.filter((b) => samePerson(a, b));
          const expected =
            mine.length >= limits.maxTicketsPerVisitor ||
            mine.filter((b) => b.day === a.day).length >= limits.maxTicketsPerDay;
          expect(refused.length > 0).toBe(expected);
          if (refused.length) return;
          accepted.push(a);
          streams.set(
            key,
            evolveVisitor(
              stream,
              VisitorTicketsBooked.create({
                ownerId: String(i).padStart(32, '0'),
                tickets: [
                  { ticketId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, ...slot },
                ],
              }),
            ),
          );
        });
      }),
    );
  });

  it('keys a subject apart from every address, and two issuers of one subject apart', () => {
    fc.assert(
      fc.property(fc.string(), fc.emailAddress(), (subject, email) => {
        expect(subjectKeyForm(subject)).not.toBe(emailKeyForm(email));
      }),
    );
    fc.assert(
      fc.property(fc.webUrl(), fc.webUrl(), fc.string({ minLength: 1 }), (a, b, sub) => {
        fc.pre(a !== b);
        expect(subjectKeyForm(`${a}!${sub}`)).not.toBe(subjectKeyForm(`${b}!${sub}`));
      }),
    );
  });

  it('lets a no-show block follow the subject to another address, and not to a guest of that address', () => {
    const rule = { limit: 2, windowDays: 30, blockDays: 14 };
    const subject = { issuer: 'https://idp.uni.example', sub: 's1' };
    const released = new Map<string, string[]>();
    // Two no-shows of bookings made signed in, with two addresses.
    for (const [address, day] of [
      [0, '2026-12-01'],
      [1, '2026-12-02'],
    ] as const) {
      const key = limitsKeyOf(keysOf({ address, subject, day: 0 }));
      released.set(key, [...(released.get(key) ?? []), day]);
    }
    const daysOf = (a: Attempt) => released.get(limitsKeyOf(keysOf(a))) ?? [];
    expect(() =>
      mustNotBeNoShowBlocked(daysOf({ address: 2, subject, day: 0 }), TODAY, rule),
    ).toThrow(Refused);
    expect(() =>
      mustNotBeNoShowBlocked(daysOf({ address: 0, subject: null, day: 0 }), TODAY, rule),
    ).not.toThrow();
  });

  it('makes the waitlist line know a signed-in entry by its subject, an old entry by its address', () => {
    const timeSlotId = '00000000-0000-4000-8000-000000000001';
    const joined = (entry: string, subjectKey?: string) =>
      WaitlistJoined.create({
        entryId: `00000000-0000-4000-8000-00000000000${entry}`,
        timeSlotId,
        visitorKey: 'a'.repeat(40),
        ...(subjectKey ? { subjectKey } : {}),
        language: 'de',
        joinedAt: '2026-12-07T08:00:00.000Z',
      });
    const line = evolveWaitlist(evolveWaitlist([], joined('2')), joined('3', 'b'.repeat(40)));
    expect(line.map((e) => e.personKey)).toEqual(['a'.repeat(40), 'b'.repeat(40)]);
  });
});
