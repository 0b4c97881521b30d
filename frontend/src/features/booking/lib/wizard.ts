/** The four booking steps the catalogue names (spec section 2). */
export const WIZARD_STEPS = ['reservation', 'data', 'finish', 'confirmation'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** Whether a step lies before, at or after the current one. */
export function stepState(step: WizardStep, current: WizardStep): 'done' | 'current' | 'todo' {
  const [index, currentIndex] = [WIZARD_STEPS.indexOf(step), WIZARD_STEPS.indexOf(current)];
  if (index === currentIndex) return 'current';
  return index < currentIndex ? 'done' : 'todo';
}
