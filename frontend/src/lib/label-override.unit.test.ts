import { describe, expect, it } from 'vitest';
import { applyLabelOverride, overrideOf, type Catalogue } from './label-override';

const catalogue: Catalogue = {
  common: { 'app-title': 'Lesesäle', nav: { rooms: 'Räume', cart: 'Warenkorb' } },
  rooms: { chooser: { title: 'Raum wählen' } },
};

describe('applyLabelOverride', () => {
  it('merges namespace objects deeply and keeps untouched texts', () => {
    const result = applyLabelOverride(
      catalogue,
      { common: { nav: { rooms: 'Lesesäle' } } },
      'common',
    );
    expect(result.common).toEqual({
      'app-title': 'Lesesäle',
      nav: { rooms: 'Lesesäle', cart: 'Warenkorb' },
    });
    expect(result.rooms).toEqual(catalogue.rooms);
  });

  it('accepts "namespace:dotted.key" entries', () => {
    const result = applyLabelOverride(
      catalogue,
      { 'rooms:chooser.title': 'Saal wählen' },
      'common',
    );
    expect(result.rooms).toEqual({ chooser: { title: 'Saal wählen' } });
  });

  it('puts plain keys into the default namespace', () => {
    const result = applyLabelOverride(
      catalogue,
      { 'app-title': 'Bibliothek', 'nav.cart': 'Ihre Reservierungen' },
      'common',
    );
    expect(result.common).toEqual({
      'app-title': 'Bibliothek',
      nav: { rooms: 'Räume', cart: 'Ihre Reservierungen' },
    });
  });

  it('ignores values that are not texts and does not modify the input', () => {
    const result = applyLabelOverride(
      catalogue,
      { 'app-title': 42, common: { nav: { rooms: null } }, 'rooms:chooser.title': ['x'] },
      'common',
    );
    expect(result).toEqual(catalogue);
    expect(result).not.toBe(catalogue);
    expect(catalogue.common).toEqual({
      'app-title': 'Lesesäle',
      nav: { rooms: 'Räume', cart: 'Warenkorb' },
    });
  });

  it('does not allow prototype pollution', () => {
    const override = JSON.parse(
      '{"__proto__": {"polluted": "yes"}, "common:__proto__.x": "y"}',
    ) as Record<string, unknown>;
    const result = applyLabelOverride(catalogue, override, 'common');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(result).toEqual(catalogue);
  });
});

describe('overrideOf (the override of the page language)', () => {
  const plain = { 'app-title': 'Lesesäle der Stadt' };
  const perLanguage = {
    de: { 'app-title': 'Lesesäle der Stadt' },
    en: { 'app-title': 'City reading rooms' },
  };

  it("applies a plain override to the page's own language only", () => {
    expect(overrideOf(plain, 'de', 'de')).toBe(plain);
    expect(overrideOf(plain, 'en', 'de')).toEqual({});
    expect(overrideOf(plain, 'en', 'en')).toBe(plain);
  });

  it('gives each language its own texts from an override by language', () => {
    expect(overrideOf(perLanguage, 'de', 'de')).toEqual({ 'app-title': 'Lesesäle der Stadt' });
    expect(overrideOf(perLanguage, 'en', 'de')).toEqual({ 'app-title': 'City reading rooms' });
    expect(overrideOf({ de: { 'app-title': 'Nur deutsch' } }, 'en', 'de')).toEqual({});
  });
});
