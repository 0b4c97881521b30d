import { useEffect, useRef } from 'react';

/** Marks the history entry this hook adds, so that it can take it back again. */
const GUARD = 'leaveGuard';

const guarded = () => (window.history.state as Record<string, unknown> | null)?.[GUARD] === true;

/**
 * Warns before the page is left while `unsaved` holds: closing or reloading the tab (the
 * browser's own question), following a link of the app and the browser's Back (a confirmation
 * with `message`; staff who stay stay, with what they typed). Links that open elsewhere (a new
 * tab, a download) leave nothing behind and pass.
 *
 * Back within the app changes no document, so no browser question comes: the hook adds a copy of
 * the current history entry while changes are unsaved, Back lands on the original entry (the
 * same address, which the router shows unchanged) and the hook asks; leaving goes back once more,
 * staying adds the copy again. Once saved, the copy is taken back.
 */
export function useLeaveWarning(unsaved: boolean, message: string): void {
  // The question's words may change (another language) without re-arming the guard.
  const question = useRef(message);
  useEffect(() => {
    question.current = message;
  }, [message]);
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
      if (window.confirm(question.current)) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const arm = () =>
      window.history.pushState(
        { ...(window.history.state as Record<string, unknown> | null), [GUARD]: true },
        '',
        window.location.href,
      );
    let leaving = false;
    const back = () => {
      if (leaving || guarded()) return;
      if (window.confirm(question.current)) {
        leaving = true;
        window.history.back();
      } else arm();
    };
    if (!guarded()) arm();
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('popstate', back);
    // Capture: before the router's own handler of the link.
    document.addEventListener('click', click, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('popstate', back);
      document.removeEventListener('click', click, true);
      // Saved (or the question settled otherwise) on the same page: take the copy back.
      if (!leaving && guarded()) window.history.back();
    };
  }, [unsaved]);
}
