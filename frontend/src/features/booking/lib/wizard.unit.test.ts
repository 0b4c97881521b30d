import { describe, expect, it } from 'vitest';
import { stepState, WIZARD_STEPS } from './wizard';

describe('booking wizard', () => {
  it('has the four steps of the catalogue in order', () => {
    expect(WIZARD_STEPS).toEqual(['reservation', 'data', 'finish', 'confirmation']);
  });

  it('marks earlier steps done, the current one current and later ones to do', () => {
    expect(WIZARD_STEPS.map((step) => stepState(step, 'finish'))).toEqual([
      'done',
      'done',
      'current',
      'todo',
    ]);
    expect(WIZARD_STEPS.map((step) => stepState(step, 'reservation'))).toEqual([
      'current',
      'todo',
      'todo',
      'todo',
    ]);
    expect(stepState('confirmation', 'confirmation')).toBe('current');
  });

  it('leaves the earlier steps to do when they were not taken (an empty cart)', () => {
    expect(WIZARD_STEPS.map((step) => stepState(step, 'finish', false))).toEqual([
      'todo',
      'todo',
      'current',
      'todo',
    ]);
  });
});
