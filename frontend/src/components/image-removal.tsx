import { useEffect, useRef, useState } from 'react';
import { DeleteConfirmation } from './delete-confirmation';

/** The texts of an image's removal: its button, and the question's title, text and confirmation. */
export interface ImageRemovalTexts {
  remove: string;
  title: string;
  question: string;
  confirm: string;
  cancel: string;
}

/**
 * The removal of an image (a room's, its seat plan's, a site's logo): a button, then the
 * question in place of it, focused; `onRemove` resolves true once the image is gone.
 */
export function ImageRemoval({
  hasImage,
  texts,
  removal,
  onRemove,
}: {
  hasImage: boolean;
  texts: ImageRemovalTexts;
  removal: { error?: unknown; isLoading: boolean; reset: () => void };
  onRemove: () => Promise<boolean>;
}) {
  const [confirming, setConfirming] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (confirming) heading.current?.focus();
  }, [confirming]);
  if (!hasImage) return null;
  if (!confirming)
    return (
      <button type="button" className="button button--danger" onClick={() => setConfirming(true)}>
        {texts.remove}
      </button>
    );
  return (
    <DeleteConfirmation
      headingLevel={3}
      headingRef={heading}
      title={texts.title}
      question={texts.question}
      error={removal.error}
      busy={removal.isLoading}
      confirmLabel={texts.confirm}
      cancelLabel={texts.cancel}
      onConfirm={() => void onRemove().then((removed) => removed && setConfirming(false))}
      onCancel={() => {
        removal.reset();
        setConfirming(false);
      }}
    />
  );
}
