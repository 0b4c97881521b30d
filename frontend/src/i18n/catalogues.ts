import type { InterfaceMode } from '../lib/config';

/**
 * The message catalogues, one file per language each: `main` (`de.json`: what every interface
 * shows), `visitor` (`visitor.de.json`: the booking screens), `staff` (`staff.de.json`: the
 * admin and reports screens) and `display` (`display.de.json`: the live occupancy display). No
 * key is in more than one of them.
 *
 * Kept free of dependencies: tests/bench/bundle.ts reads which catalogues an interface loads.
 */
export type CatalogueName = 'main' | 'visitor' | 'staff' | 'display';

/**
 * The catalogues an interface loads, in merge order. Visitors never load the staff or display
 * texts; the display loads no booking texts.
 */
export function cataloguesOf(mode: InterfaceMode): CatalogueName[] {
  if (mode === 'display') return ['main', 'display'];
  return mode === 'admin' || mode === 'reports'
    ? ['main', 'visitor', 'staff']
    : ['main', 'visitor'];
}
