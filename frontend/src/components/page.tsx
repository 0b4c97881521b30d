import type { ReactNode } from 'react';
import { useDocumentTitle } from '../hooks/use-document-title';

interface PageProps {
  /** The page's only h1, also used for the document title. */
  title: string;
  children?: ReactNode;
}

/**
 * A routed view: one h1 (focusable, so navigation can move focus to it) and the document title.
 */
export function Page({ title, children }: PageProps) {
  useDocumentTitle(title);
  return (
    <>
      <h1 className="page-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </>
  );
}
