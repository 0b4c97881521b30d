import { useEffect, useRef, type RefObject } from 'react';
import { useLocation } from 'react-router';

/**
 * After a client-side navigation, moves focus to the new view's h1 (inside `container`), so
 * keyboard and screen reader users start at the new content. The first render is left alone.
 */
export function useFocusOnNavigation(container: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const heading = container.current?.querySelector<HTMLElement>('h1');
    (heading ?? container.current)?.focus();
  }, [pathname, container]);
}
