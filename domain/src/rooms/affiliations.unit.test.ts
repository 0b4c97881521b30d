import { describe, expect, it } from 'vitest';
import { NO_ROOM_SERVICES, withSiteMembersRule, type RoomServices } from '@rr/contracts';
import { Refused } from '../refusal.ts';
import { mustAdmitMember, type Member } from './affiliations.ts';

const room = (services: Partial<RoomServices>) => ({
  services: { ...NO_ROOM_SERVICES, ...services },
});
const refusal = (rooms: { services: RoomServices }[], member: Member) => {
  try {
    mustAdmitMember(rooms, member);
    return null;
  } catch (err) {
    if (err instanceof Refused) return err.refusal;
    throw err;
  }
};
const student = { memberships: ['student@uni-x.de', 'member@uni-x.de', 'student', 'uni-x.de'] };
const partner = { memberships: ['student@uni-partner.de', 'student', 'uni-partner.de'] };
const staffOfX = { memberships: ['staff@uni-x.de', 'staff', 'uni-x.de', 'library-team'] };

describe("members' rooms by sign-in and affiliation", () => {
  it('admit everyone where the room asks for nothing', () => {
    expect(refusal([room({})], null)).toBeNull();
    expect(refusal([room({ allowedAffiliations: [] })], null)).toBeNull();
  });

  it('refuse a guest where sign-in is required or affiliations are named', () => {
    expect(refusal([room({ signInRequired: true })], null)).toEqual({
      code: 'booking__sign_in_required',
    });
    expect(refusal([room({ allowedAffiliations: ['student'] })], null)).toEqual({
      code: 'booking__sign_in_required',
    });
    expect(refusal([room({ signInRequired: true })], partner)).toBeNull();
  });

  it('admit by scoped affiliation, affiliation, home organisation or group, without case', () => {
    const scoped = [room({ allowedAffiliations: ['Student@Uni-X.de'] })];
    expect(refusal(scoped, student)).toBeNull();
    expect(refusal(scoped, partner)).toEqual({
      code: 'booking__affiliation_not_allowed',
      affiliations: ['Student@Uni-X.de'],
    });
    expect(refusal([room({ allowedAffiliations: ['uni-partner.de'] })], partner)).toBeNull();
    expect(refusal([room({ allowedAffiliations: ['uni-partner.de'] })], student)).toHaveProperty(
      'code',
      'booking__affiliation_not_allowed',
    );
    expect(refusal([room({ allowedAffiliations: ['library-team'] })], staffOfX)).toBeNull();
    expect(refusal([room({ allowedAffiliations: ['student'] })], staffOfX)).toHaveProperty(
      'code',
      'booking__affiliation_not_allowed',
    );
  });

  it('ask every room: the first that does not admit refuses', () => {
    const rooms = [room({}), room({ allowedAffiliations: ['staff'] })];
    expect(refusal(rooms, student)).toHaveProperty('code', 'booking__affiliation_not_allowed');
  });
});

describe("a site's rule with its room's (membersRuleOf)", () => {
  const ofSite = (services: Partial<RoomServices>, site: Partial<RoomServices>) => ({
    services: withSiteMembersRule({ ...NO_ROOM_SERVICES, ...services }, site),
  });

  it("gives a room without a rule of its own the site's", () => {
    expect(refusal([ofSite({}, { signInRequired: true })], null)).toMatchObject({
      code: 'booking__sign_in_required',
    });
    expect(refusal([ofSite({}, { allowedAffiliations: ['staff'] })], student)).toMatchObject({
      code: 'booking__affiliation_not_allowed',
    });
    expect(refusal([ofSite({}, { allowedAffiliations: ['student'] })], student)).toBeNull();
  });

  it("requires sign-in when either does, and takes the room's affiliations before the site's", () => {
    expect(refusal([ofSite({ signInRequired: true }, {})], null)).not.toBeNull();
    const narrowed = ofSite(
      { allowedAffiliations: ['library-team'] },
      { allowedAffiliations: ['uni-x.de'] },
    );
    expect(narrowed.services.allowedAffiliations).toEqual(['library-team']);
    expect(refusal([narrowed], student)).toMatchObject({
      code: 'booking__affiliation_not_allowed',
    });
    expect(refusal([narrowed], staffOfX)).toBeNull();
    expect(refusal([ofSite({}, {})], null)).toBeNull();
  });
});
