import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@rr/platform';
import { Client, type AdminSuite, type TestApp } from '../support/app.ts';
import { createRoom, createSlot } from '../support/fixtures.ts';
import type { TestIdp } from '../support/saml-idp.ts';
import {
  bookSlotAs,
  openVisitorSignInSuite,
  SAML_ATTRIBUTES as A,
  VISITOR_SP as SP,
  visitorOidcSignIn,
  visitorSamlSignIn,
  type VisitorSignInSuite,
} from '../support/visitor-sign-in.ts';

/**
 * Rooms for members of the university (docs/product.md#room-services): sign-in required, and
 * admitted affiliations, decided by the one seat decision for the booking and the waitlist, fed
 * with the visitor signed in with the campus identity (the test's OpenID provider and SAML
 * identity provider). Monday 23 Nov 2026, 10:00 in Vienna.
 */
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let suite: AdminSuite;
let app: TestApp;
let admin: Client;
let signIn: VisitorSignInSuite;
let idp: TestIdp;

type Problem = { error: string; payload: string[] };
const owner = {
  salutation: 'MS',
  firstName: 'Anna',
  lastName: 'Musterfrau',
  phone: '+436641234567',
  language: 'de',
};

const services = (id: string, json: Record<string, unknown>) =>
  admin.request('PUT', `/api/admin/rooms/${id}/services`, { json });
const bookAs = (v: Client, timeSlotId: string, email: string) =>
  bookSlotAs(v, timeSlotId, owner, email);
const samlVisitor = async (attributes: Record<string, string[]>) =>
  (await visitorSamlSignIn(app.baseUrl, idp, SP, clock, attributes)).client;

beforeAll(async () => {
  signIn = await openVisitorSignInSuite(clock, {
    stud1: {
      email: 'stud1@uni-x.de',
      eduperson_scoped_affiliation: ['student@uni-x.de'],
      eduperson_affiliation: ['student'],
      schac_home_organization: 'uni-x.de',
    },
    prof1: {
      email: 'prof1@uni-x.de',
      eduperson_scoped_affiliation: ['faculty@uni-x.de'],
      eduperson_affiliation: ['faculty'],
      schac_home_organization: 'uni-x.de',
    },
  });
  ({ suite, idp } = signIn);
  ({ app, admin } = suite);
});
afterAll(async () => {
  await signIn?.close();
});

describe('rooms for members of the university', () => {
  it('are set with the room services, normalised, shown to visitors, and off when left out', async () => {
    const id = await createRoom(admin, 'Members by affiliation');
    const set = await services(id, {
      signInRequired: true,
      allowedAffiliations: [' Student@Uni-X.de ', 'uni-partner.de', 'student@uni-x.de'],
    });
    expect(set.status).toBe(200);
    const room = async () =>
      ((await (await admin.get(`/api/rooms/${id}`)).json()) as { services: object }).services;
    expect(await room()).toMatchObject({
      signInRequired: true,
      allowedAffiliations: ['student@uni-x.de', 'uni-partner.de'],
    });
    expect((await services(id, { reminderHoursBefore: 24 })).status).toBe(200);
    expect(await room()).not.toHaveProperty('signInRequired');
    expect(await room()).not.toHaveProperty('allowedAffiliations');
  });

  it('refuse a guest, and a visitor of another affiliation; admit the affiliation and the partner by home organisation', async () => {
    const id = await createRoom(admin, 'Members booking');
    expect(
      (await services(id, { allowedAffiliations: ['student@uni-x.de', 'uni-partner.de'] })).status,
    ).toBe(200);
    const slot = await createSlot(admin, id, '2026-12-01', '09:00', '10:00', 10);

    const guest = await bookAs(new Client(app.baseUrl), slot, 'guest@uni-x.de');
    expect(guest.status).toBe(403);
    expect(((await guest.json()) as Problem).error).toBe('booking__sign_in_required');

    const prof = new Client(app.baseUrl);
    await visitorOidcSignIn(prof, 'prof1');
    const refused = await bookAs(prof, slot, 'prof1@uni-x.de');
    expect(refused.status).toBe(403);
    expect((await refused.json()) as Problem).toMatchObject({
      error: 'booking__affiliation_not_allowed',
      payload: ['affiliations', 'student@uni-x.de', 'uni-partner.de'],
    });

    const student = new Client(app.baseUrl);
    await visitorOidcSignIn(student, 'stud1');
    expect((await bookAs(student, slot, 'stud1@uni-x.de')).status).toBe(200);

    const partner = await samlVisitor({
      [A.pairwiseId]: ['P-1@uni-partner.de'],
      [A.scopedAffiliation]: ['student@uni-partner.de'],
      [A.homeOrganization]: ['uni-partner.de'],
    });
    expect((await bookAs(partner, slot, 'kim@uni-partner.de')).status).toBe(200);
    const otherPartner = await samlVisitor({
      [A.pairwiseId]: ['Q-1@uni-elsewhere.de'],
      [A.scopedAffiliation]: ['student@uni-elsewhere.de'],
      [A.homeOrganization]: ['uni-elsewhere.de'],
    });
    expect((await bookAs(otherPartner, slot, 'lee@uni-elsewhere.de')).status).toBe(403);

    // Staff book anyone; a room without the rule takes guests as before.
    const staff = await admin.request('POST', `/api/admin/rooms/${id}/timeslots/${slot}/booking`, {
      json: { ...owner, email: 'guest@example.org' },
    });
    expect(staff.status).toBe(201);
    const open = await createRoom(admin, 'Open room');
    const openSlot = await createSlot(admin, open, '2026-12-01', '09:00', '10:00', 10);
    expect(
      (await bookAs(new Client(app.baseUrl), openSlot, 'another.guest@example.org')).status,
    ).toBe(200);
  });

  it('tell a guest when the address is entered, before the last step', async () => {
    const id = await createRoom(admin, 'Members check');
    expect((await services(id, { signInRequired: true })).status).toBe(200);
    const slot = await createSlot(admin, id, '2026-12-02', '09:00', '10:00', 10);
    const check = async (c: Client) => {
      const r = await c.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
      const { transactionId } = (await r.json()) as { transactionId: string };
      return c.request('POST', '/api/email-check', {
        json: { email: 'reader@uni-x.de', transactionId },
      });
    };
    const refused = await check(new Client(app.baseUrl));
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).error).toBe('booking__sign_in_required');
    const student = new Client(app.baseUrl);
    await visitorOidcSignIn(student, 'stud1');
    expect((await check(student)).status).toBe(204);
  });

  it('refuse a guest at the waitlist of a room that requires sign-in; admit a signed-in visitor', async () => {
    const id = await createRoom(admin, 'Members waitlist');
    expect((await services(id, { signInRequired: true, waitlistOfferMinutes: 30 })).status).toBe(
      200,
    );
    const slot = await createSlot(admin, id, '2026-12-03', '09:00', '10:00', 1);
    const first = new Client(app.baseUrl);
    await visitorOidcSignIn(first, 'prof1');
    expect((await bookAs(first, slot, 'prof1@uni-x.de')).status).toBe(200);
    const join = (c: Client, email: string) =>
      c.request('POST', `/api/timeslots/${slot}/waitlist`, { json: { email, language: 'de' } });
    const refused = await join(new Client(app.baseUrl), 'guest@example.org');
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as Problem).error).toBe('booking__sign_in_required');
    const student = new Client(app.baseUrl);
    await visitorOidcSignIn(student, 'stud1');
    expect((await join(student, 'stud1@uni-x.de')).status).toBe(201);
  });
});

describe('sites for members of the university', () => {
  const site = (slug: string, json: Record<string, unknown>) =>
    admin.request('POST', '/api/admin/sites', {
      json: { name: `Site ${slug}`, slug, contactEmail: `${slug}@uni-x.de`, ...json },
    });
  const roomAnswer = async (id: string) =>
    (await (await admin.get(`/api/rooms/${id}`)).json()) as {
      services: Record<string, unknown>;
      members: { signInRequired?: boolean; allowedAffiliations?: string[] };
    };

  it('refuse a guest in a room of a site that requires sign-in, admit a student, and the room’s own list narrows the site’s', async () => {
    const made = await site('campus-nord', {
      signInRequired: true,
      allowedAffiliations: [' Student@Uni-X.de ', 'faculty@uni-x.de'],
    });
    expect(made.status).toBe(201);
    const { id: siteId } = (await made.json()) as { id: string };
    const sites = (await (await admin.get('/api/admin/sites')).json()) as {
      content: { id: string; signInRequired: boolean; allowedAffiliations: string[] }[];
    };
    expect(sites.content.find((s) => s.id === siteId)).toMatchObject({
      signInRequired: true,
      allowedAffiliations: ['student@uni-x.de', 'faculty@uni-x.de'],
    });

    // A room of the site without a rule of its own: the site's rule is the room's.
    const id = await createRoom(admin, 'Site members room', { siteId });
    const room = await roomAnswer(id);
    expect(room.services).not.toHaveProperty('signInRequired');
    expect(room.members).toEqual({
      signInRequired: true,
      allowedAffiliations: ['student@uni-x.de', 'faculty@uni-x.de'],
    });
    const slot = await createSlot(admin, id, '2026-12-04', '09:00', '10:00', 10);
    const guest = await bookAs(new Client(app.baseUrl), slot, 'guest@uni-x.de');
    expect(guest.status).toBe(403);
    expect(((await guest.json()) as Problem).error).toBe('booking__sign_in_required');
    const student = new Client(app.baseUrl);
    await visitorOidcSignIn(student, 'stud1');
    expect((await bookAs(student, slot, 'stud1@uni-x.de')).status).toBe(200);
    const prof = new Client(app.baseUrl);
    await visitorOidcSignIn(prof, 'prof1');
    expect((await bookAs(prof, slot, 'prof1@uni-x.de')).status).toBe(200);

    // A room of the site naming its own affiliations: its list, not the site's.
    const narrow = await createRoom(admin, 'Site students room', { siteId });
    expect((await services(narrow, { allowedAffiliations: ['student'] })).status).toBe(200);
    expect((await roomAnswer(narrow)).members).toEqual({
      signInRequired: true,
      allowedAffiliations: ['student'],
    });
    const narrowSlot = await createSlot(admin, narrow, '2026-12-04', '13:00', '14:00', 10);
    const refused = await bookAs(prof, narrowSlot, 'prof1@uni-x.de');
    expect(refused.status).toBe(403);
    expect((await refused.json()) as Problem).toMatchObject({
      error: 'booking__affiliation_not_allowed',
      payload: ['affiliations', 'student'],
    });
    expect((await bookAs(student, narrowSlot, 'stud1@uni-x.de')).status).toBe(200);

    // The waitlist is asked the same: a guest is refused at a full slot of the site's room.
    const full = await createRoom(admin, 'Site waitlist room', { siteId });
    expect((await services(full, { waitlistOfferMinutes: 30 })).status).toBe(200);
    const fullSlot = await createSlot(admin, full, '2026-12-08', '11:00', '12:00', 1);
    expect((await bookAs(student, fullSlot, 'stud1@uni-x.de')).status).toBe(200);
    const join = await new Client(app.baseUrl).request(
      'POST',
      `/api/timeslots/${fullSlot}/waitlist`,
      { json: { email: 'guest@example.org', language: 'de' } },
    );
    expect(join.status).toBe(403);
    expect(((await join.json()) as Problem).error).toBe('booking__sign_in_required');
  });

  it('lift the rule from the site’s rooms when the site drops it, and refuse a bad affiliation list', async () => {
    const made = await site('campus-sued', { signInRequired: true });
    const { id: siteId, version } = (await made.json()) as { id: string; version: number };
    const id = await createRoom(admin, 'Site room opened', { siteId });
    const slot = await createSlot(admin, id, '2026-12-07', '09:00', '10:00', 10);
    expect((await bookAs(new Client(app.baseUrl), slot, 'guest@example.org')).status).toBe(403);
    // The address check on the personal data step asks the site's rule too.
    const guest = new Client(app.baseUrl);
    const cart = await guest.request('POST', '/api/transactions', { json: { timeSlotId: slot } });
    const { transactionId } = (await cart.json()) as { transactionId: string };
    const checked = await guest.request('POST', '/api/email-check', {
      json: { email: 'reader@example.org', transactionId },
    });
    expect(checked.status).toBe(403);
    expect(((await checked.json()) as Problem).error).toBe('booking__sign_in_required');

    const tooMany = Array.from({ length: 51 }, (_, i) => `group-${i}`);
    const bad = await admin.request('PUT', `/api/admin/sites/${siteId}`, {
      json: {
        name: 'Site campus-sued',
        slug: 'campus-sued',
        contactEmail: 'campus-sued@uni-x.de',
        allowedAffiliations: tooMany,
        version,
      },
    });
    expect(bad.status).toBe(400);

    const opened = await admin.request('PUT', `/api/admin/sites/${siteId}`, {
      json: {
        name: 'Site campus-sued',
        slug: 'campus-sued',
        contactEmail: 'campus-sued@uni-x.de',
        version,
      },
    });
    expect(opened.status).toBe(200);
    expect((await roomAnswer(id)).members).toEqual({});
    expect((await bookAs(new Client(app.baseUrl), slot, 'guest@example.org')).status).toBe(200);
  });
});
