import { useEffect } from 'react';

/**
 * Warns before the page is left while `unsaved` holds: closing or reloading the tab (the
 * browser's own question) and following a link of the app (a confirmation with `message`; the
 * link is not followed when staff stay). Links that open elsewhere (a new tab, a download) leave
 * nothing behind and pass.
 */
export function useLeaveWarning(unsaved: boolean, message: string): void {
  useEffect(() => {
    if (!unsaved) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const click = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
      const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(link instanceof HTMLAnchorElement)) return;
      if (link.target && link.target !== '_self') return;
      if (link.hasAttribute('download')) return;
      if (window.confirm(message)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    window.addEventListener('beforeunload', beforeUnload);
    // Capture: before the router's own handler of the link.
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', click, true);
    };
  }, [unsaved, message]);
}
