import type { ReactNode } from 'react';

/** Message for an empty list or search result. */
export function EmptyState({ children }: { children: ReactNode }) {
  return <p className="empty-state">{children}</p>;
}
