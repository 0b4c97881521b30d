/** The four booking steps the catalogue names (docs/product.md#screens). */
export const WIZARD_STEPS = ['reservation', 'data', 'finish', 'confirmation'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/**
 * Whether a step lies before (done), at or after the current one. Without `reached` (the steps
 * before were not taken, e.g. no slot in the cart) an earlier step is still to do.
 */
export function stepState(
  step: WizardStep,
  current: WizardStep,
  reached = true,
): 'done' | 'current' | 'todo' {
  const [index, currentIndex] = [WIZARD_STEPS.indexOf(step), WIZARD_STEPS.indexOf(current)];
  if (index === currentIndex) return 'current';
  return index < currentIndex && reached ? 'done' : 'todo';
}
