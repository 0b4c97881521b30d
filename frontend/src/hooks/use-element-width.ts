import { useCallback, useState } from 'react';

/**
 * The width an element is laid out at, in CSS pixels, following it as the page resizes (0 until
 * it is measured). A chart drawn at this width keeps its texts at their own size instead of
 * being scaled with the picture.
 */
export function useElementWidth<E extends HTMLElement>(): [(element: E | null) => void, number] {
  const [width, setWidth] = useState(0);
  const ref = useCallback((element: E | null) => {
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}
