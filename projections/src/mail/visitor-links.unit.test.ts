import { describe, expect, it } from 'vitest';
import { composeMail, type MailInput } from './compose.ts';
import { composeMyBookingsMail } from './my-bookings-link.ts';
import {
  bookingLink,
  confirmationLink,
  myBookingsLink,
  visitorLink,
  waitlistLeaveLink,
  waitlistOfferLink,
} from './visitor-links.ts';
import { composeJoinMail, composeOfferMail } from './waitlist-offer.ts';

const BASE = 'https://library.example/reserve/';
const OWNER = 'a'.repeat(32);
const TOKEN = 'T0ken_with-url-safe_chars0123456789abcdefgh';

describe('visitorLink (a mail link names the mail language)', () => {
  it('puts the page under the base and names the language as `lang`', () => {
    expect(visitorLink(BASE, 'my-bookings/x.y', 'en')).toBe(
      'https://library.example/reserve/my-bookings/x.y?lang=en',
    );
    expect(visitorLink('https://library.example/', 'waitlist-leave/r', 'de')).toBe(
      'https://library.example/waitlist-leave/r?lang=de',
    );
  });

  it('puts the fragment after the query, so the page reads both', () => {
    const link = new URL(visitorLink(BASE, `reservation-confirmation/${OWNER}`, 'en', 'confirm=t'));
    expect(link.pathname).toBe(`/reserve/reservation-confirmation/${OWNER}`);
    expect(link.searchParams.get('lang')).toBe('en');
    expect(new URLSearchParams(link.hash.slice(1)).get('confirm')).toBe('t');
  });
});

describe("each mail's link", () => {
  it("the booking page (every booking mail, the reminder's cancel link)", () => {
    expect(bookingLink(BASE, OWNER, 'en')).toBe(`${BASE}reservation-confirmation/${OWNER}?lang=en`);
    expect(bookingLink(BASE, OWNER, 'de')).toBe(`${BASE}reservation-confirmation/${OWNER}?lang=de`);
  });

  it('the confirmation of the address: the language before the token', () => {
    expect(confirmationLink(BASE, OWNER, TOKEN, 'en')).toBe(
      `${BASE}reservation-confirmation/${OWNER}?lang=en#confirm=${TOKEN}`,
    );
  });

  it('my bookings, the waitlist offer and leaving the line', () => {
    const code = '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAA';
    expect(myBookingsLink(BASE, code, 'en')).toBe(`${BASE}my-bookings/${code}?lang=en`);
    expect(waitlistOfferLink(BASE, 'slot-1', 'b'.repeat(32), 'de')).toBe(
      `${BASE}waitlist-offer/slot-1/${'b'.repeat(32)}?lang=de`,
    );
    expect(waitlistLeaveLink(BASE, code, 'en')).toBe(`${BASE}waitlist-leave/${code}?lang=en`);
  });
});

describe('the mails carry their link whole, in text and HTML', () => {
  const slot = { roomName: 'Saal', date: '2026-12-01', startTime: '09:00', endTime: '10:00' };
  const expectLink = (mail: { text: string; html: string }, link: string) => {
    expect(mail.text.split('\n')).toContain(link);
    expect(mail.html).toContain(`href="${link}"`);
  };

  it('a booking mail with its confirmation link', () => {
    const input: MailInput = {
      kind: 'confirmation',
      language: 'en',
      bookingNumber: 'R-ABCDEF',
      ownerId: OWNER,
      salutation: 'MS',
      title: null,
      firstName: 'Maria',
      lastName: 'Musterfrau',
      tickets: [{ ticketId: '00000000-0000-4000-8000-000000000001', ...slot }],
      confirmationUrl: bookingLink(BASE, OWNER, 'en'),
      timeZone: 'Europe/Vienna',
      writtenAt: new Date('2027-03-04T05:06:07Z'),
      confirmBy: {
        date: '2026-11-30',
        time: '12:00',
        url: confirmationLink(BASE, OWNER, TOKEN, 'en'),
      },
    };
    const mail = composeMail(input);
    expectLink(mail, `${BASE}reservation-confirmation/${OWNER}?lang=en`);
    expectLink(mail, `${BASE}reservation-confirmation/${OWNER}?lang=en#confirm=${TOKEN}`);
  });

  it('the my-bookings, offer and joining mails', () => {
    const code = '00000000-0000-4000-8000-000000000000.AAAAAAAAAAAAAAAAAAAAAA';
    const mine = myBookingsLink(BASE, code, 'de');
    expectLink(
      composeMyBookingsMail({
        language: 'de',
        url: mine,
        validUntil: { date: '2026-12-01', time: '10:00' },
      }),
      mine,
    );
    const offer = waitlistOfferLink(BASE, 'slot-1', 'b'.repeat(32), 'en');
    expectLink(
      composeOfferMail({
        language: 'en',
        ...slot,
        heldUntil: { date: '2026-11-30', time: '12:00' },
        offerUrl: offer,
      }),
      offer,
    );
    const leave = waitlistLeaveLink(BASE, code, 'en');
    expectLink(composeJoinMail({ language: 'en', ...slot, leaveUrl: leave }), leave);
  });

  it('of a site name it in the subject and close with its own closing and contact', () => {
    const site = {
      site: true,
      name: 'Law Library',
      signature: 'Best wishes\nThe law library team',
      contactEmail: 'law@library.example',
    };
    const offer = composeOfferMail({
      language: 'en',
      ...slot,
      heldUntil: { date: '2026-11-30', time: '12:00' },
      offerUrl: waitlistOfferLink(BASE, 'slot-1', 'b'.repeat(32), 'en'),
      library: site,
    });
    expect(offer.subject).toMatch(/ – Law Library$/);
    expect(offer.text).toContain('Best wishes\nThe law library team\nContact: law@library.example');
    const join = composeJoinMail({
      language: 'en',
      ...slot,
      leaveUrl: waitlistLeaveLink(BASE, 'c'.repeat(20), 'en'),
      library: site,
    });
    expect(join.subject).toMatch(/ – Law Library$/);
  });
});
