import { describe, expect, it } from 'vitest';
import { NO_HOURS } from '@rr/contracts/sites';
import type { Site } from '../../../api/types';
import { errorsOf } from '../../../lib/form-check';
import {
  checkSiteForm,
  SITE_FORM_DEFAULTS,
  siteToFormValues,
  type SiteFormValues,
} from './site-form';

const values = (given: Partial<SiteFormValues>): SiteFormValues => ({
  ...SITE_FORM_DEFAULTS,
  ...given,
});
const valid = values({
  name: 'Fachbibliothek Jura',
  slug: 'jura',
  contactEmail: 'jura@uni.example',
});

describe('site form (docs/product.md#sites)', () => {
  it('asks for name, slug and contact address; the others are optional', () => {
    const errors = errorsOf(checkSiteForm(SITE_FORM_DEFAULTS));
    expect(Object.keys(errors).sort()).toEqual(['contactEmail', 'name', 'slug']);
    expect(errors).toMatchObject({ name: { key: 'required' }, contactEmail: { key: 'required' } });
    expect(errorsOf(checkSiteForm(valid))).toEqual({});
  });

  it('checks the slug, the address, the phone and the lengths with the contract', () => {
    const errors = errorsOf(
      checkSiteForm({
        ...valid,
        nameEn: 'ab',
        slug: 'Jura Wien',
        contactEmail: 'jura',
        phone: 'zwei',
        address: 'x'.repeat(301),
        mailSignature: 'y'.repeat(501),
      }),
    );
    expect(errors).toEqual({
      nameEn: { key: 'min-length', params: { min: 3 } },
      slug: { key: 'slug' },
      contactEmail: { key: 'email' },
      phone: { key: 'phone' },
      address: { key: 'max-length', params: { max: 300 } },
      mailSignature: { key: 'max-length', params: { max: 500 } },
    });
  });

  it('sends the booking window of its rooms: each bound a number with its kind, or neither', () => {
    const window = checkSiteForm({ ...valid, openEndValue: '5', openEndType: 'DAY' });
    expect(window.ok && window.data).toMatchObject({ openEndValue: 5, openEndType: 'DAY' });
    expect(window.ok && window.data.openStartValue).toBeUndefined();
    expect(errorsOf(checkSiteForm({ ...valid, openEndValue: '5' }))).toEqual({
      openEndType: { key: 'required' },
    });
    expect(errorsOf(checkSiteForm({ ...valid, openStartType: 'WORKING_DAY' }))).toEqual({
      openStartValue: { key: 'required' },
    });
  });

  it('sends trimmed values, the slug in lower case, empty optional texts left out', () => {
    const result = checkSiteForm({ ...valid, slug: ' JURA ', nameEn: ' ', address: 'A\nB' });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.data).toEqual({
      name: 'Fachbibliothek Jura',
      slug: 'jura',
      contactEmail: 'jura@uni.example',
      address: 'A\nB',
    });
  });

  it('fills the form from a site, what it lacks empty', () => {
    const site: Site = {
      id: '00000000-0000-4000-8000-000000000001',
      version: 0,
      slug: 'bibliothek',
      name: 'Bibliothek',
      contactEmail: null,
      address: null,
      phone: '+4312345',
      mailSignature: null,
      signInRequired: false,
      allowedAffiliations: [],
      openStart: null,
      openEnd: null,
      roomCount: 3,
      hours: NO_HOURS,
      logoUrl: null,
    };
    expect(siteToFormValues(site)).toEqual({
      ...SITE_FORM_DEFAULTS,
      name: 'Bibliothek',
      slug: 'bibliothek',
      phone: '+4312345',
    });
  });

  it('sends the rule for members of the university: the ticked sign-in, the affiliations one a line or by commas', () => {
    const result = checkSiteForm({
      ...valid,
      signInRequired: 'true',
      allowedAffiliations: ' Student@Uni-Jura.example\nstaff, hs-partner.example;Lesesaal Team ',
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    expect(result.data).toMatchObject({
      signInRequired: true,
      allowedAffiliations: [
        'student@uni-jura.example',
        'staff',
        'hs-partner.example',
        'lesesaal team',
      ],
    });
    const tooLong = errorsOf(
      checkSiteForm({ ...valid, allowedAffiliations: `a, ${'x'.repeat(201)}` }),
    );
    expect(tooLong).toEqual({ allowedAffiliations: { key: 'max-length', params: { max: 200 } } });
    expect(
      siteToFormValues({
        id: '00000000-0000-4000-8000-000000000002',
        version: 1,
        slug: 'jura',
        name: 'Jura',
        contactEmail: 'jura@uni.example',
        address: null,
        phone: null,
        mailSignature: null,
        signInRequired: true,
        allowedAffiliations: ['student', 'staff@uni-jura.example'],
        openStart: null,
        openEnd: null,
        roomCount: 0,
        hours: NO_HOURS,
        logoUrl: null,
      }),
    ).toMatchObject({
      signInRequired: 'true',
      allowedAffiliations: 'student\nstaff@uni-jura.example',
    });
  });
});
