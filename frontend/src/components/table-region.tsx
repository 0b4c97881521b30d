import type { ReactNode } from 'react';

interface Props {
  /** The accessible name of the region: what the table shows (its caption). */
  label: string;
  busy?: boolean;
  children: ReactNode;
}

/**
 * The scroll container of a wide table. On a narrow screen the table can scroll sideways inside
 * it, so it is a labelled region in the tab order: keyboard users can focus it and scroll with
 * the arrow keys (axe `scrollable-region-focusable`, WCAG 2.1.1).
 */
export function TableRegion({ label, busy, children }: Props) {
  return (
    <div
      className="table-wrap"
      role="region"
      aria-label={label}
      tabIndex={0}
      aria-busy={busy || undefined}
    >
      {children}
    </div>
  );
}
