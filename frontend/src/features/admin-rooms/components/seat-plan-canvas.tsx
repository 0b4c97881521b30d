import { memo, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { useMove } from 'react-aria';
import { useTranslation } from '../../../i18n/i18n-context';
import {
  NUDGE_STEP,
  NUDGE_STEP_BIG,
  clampPercent,
  type DraftSeat,
} from '../utils/seat-plan-editing';

/** The element id of a seat's button on the plan. */
export const seatButtonId = (key: string) => `seat-button-${key}`;

export interface SeatPlanCanvasProps {
  seats: readonly DraftSeat[];
  selected: ReadonlySet<string>;
  /** The plan image's address; null or an image that fails to load: a plain grid. */
  imageUrl: string | null;
  /** The seats the server refused (their key), each with its message's element id. */
  refusedBy: ReadonlyMap<string, string>;
  nameOf: (seat: DraftSeat) => string;
  onSelect: (key: string, add: boolean) => void;
  /** A click with the mouse on a free spot of the plan (per cent). */
  onPlace: (x: number, y: number) => void;
  /** A seat dragged to a place (per cent). */
  onMoveTo: (key: string, x: number, y: number) => void;
  /** Arrow keys on a seat: it and the other selected seats moved (per cent). */
  onNudge: (key: string, dx: number, dy: number) => void;
  /** R on a seat: it and the other selected seats turned by steps of 15°. */
  onRotate: (key: string, steps: number) => void;
  /** Delete on a seat: it and the other selected seats removed. */
  onDelete: (key: string) => void;
}

/**
 * The room's plan (its image as an `<img>`, never inlined, or a grid) with the seats as buttons at
 * their places: a click selects (with Shift or Ctrl: adds to the selection), the pointer drags,
 * the arrow keys move the selected seats (with Shift further), R turns them (Shift+R back), Delete
 * removes them. A click on a free spot adds a seat there; the keyboard's way is the add button.
 */
export function SeatPlanCanvas(props: SeatPlanCanvasProps) {
  const { t } = useTranslation('admin-rooms');
  const canvas = useRef<HTMLDivElement>(null);
  const image = useRef<HTMLImageElement>(null);
  const [failedImage, setFailedImage] = useState<string | null>(null);
  const showImage = props.imageUrl !== null && failedImage !== props.imageUrl;

  const placeOnFreeSpot = (event: MouseEvent<HTMLDivElement>) => {
    if (event.target !== canvas.current && event.target !== image.current) return;
    const box = canvas.current?.getBoundingClientRect();
    if (!box || box.width === 0 || box.height === 0) return;
    props.onPlace(
      ((event.clientX - box.left) / box.width) * 100,
      ((event.clientY - box.top) / box.height) * 100,
    );
  };

  return (
    <div className="seat-plan__scroller">
      {/* A click on a free spot is the mouse's shortcut of the "add seat" button. */}
      <div
        ref={canvas}
        className={showImage ? 'seat-plan' : 'seat-plan seat-plan--grid'}
        onClick={placeOnFreeSpot}
        data-testid="seat-plan"
      >
        {showImage && props.imageUrl ? (
          <img
            ref={image}
            className="seat-plan__image"
            src={props.imageUrl}
            alt={t('seats.plan-image-alt')}
            draggable={false}
            onError={() => setFailedImage(props.imageUrl)}
          />
        ) : null}
        {props.seats.map((seat, index) => (
          <SeatButton
            key={seat.key}
            reachable={props.selected.size ? props.selected.has(seat.key) : index === 0}
            seat={seat}
            name={props.nameOf(seat)}
            selected={props.selected.has(seat.key)}
            refusedBy={props.refusedBy.get(seat.key)}
            canvas={canvas}
            onSelect={props.onSelect}
            onMoveTo={props.onMoveTo}
            onNudge={props.onNudge}
            onRotate={props.onRotate}
            onDelete={props.onDelete}
          />
        ))}
      </div>
    </div>
  );
}

interface SeatButtonProps {
  seat: DraftSeat;
  /** In the tab order: the selected seats (none selected: the first), not all hundreds. */
  reachable: boolean;
  name: string;
  selected: boolean;
  refusedBy: string | undefined;
  canvas: RefObject<HTMLDivElement | null>;
  onSelect: (key: string, add: boolean) => void;
  onMoveTo: (key: string, x: number, y: number) => void;
  onNudge: (key: string, dx: number, dy: number) => void;
  onRotate: (key: string, steps: number) => void;
  onDelete: (key: string) => void;
}

const SeatButton = memo(function SeatButton({
  seat,
  reachable,
  name,
  selected,
  refusedBy,
  canvas,
  onSelect,
  onMoveTo,
  onNudge,
  onRotate,
  onDelete,
}: SeatButtonProps) {
  const button = useRef<HTMLButtonElement>(null);
  // Where a drag has the seat now: the pointer's moves add up here, the plan follows each one.
  const dragged = useRef({ x: seat.x, y: seat.y });
  const { moveProps } = useMove({
    onMoveStart: () => {
      dragged.current = { x: seat.x, y: seat.y };
    },
    onMove: (event) => {
      if (event.pointerType === 'keyboard') {
        const step = event.shiftKey ? NUDGE_STEP_BIG : NUDGE_STEP;
        onNudge(seat.key, event.deltaX * step, event.deltaY * step);
        return;
      }
      const box = canvas.current?.getBoundingClientRect();
      if (!box || box.width === 0 || box.height === 0) return;
      dragged.current = {
        x: dragged.current.x + (event.deltaX / box.width) * 100,
        y: dragged.current.y + (event.deltaY / box.height) * 100,
      };
      onMoveTo(seat.key, clampPercent(dragged.current.x), clampPercent(dragged.current.y));
    },
  });
  return (
    <button
      ref={button}
      id={seatButtonId(seat.key)}
      type="button"
      tabIndex={reachable ? 0 : -1}
      className={`seat-plan__seat${selected ? ' seat-plan__seat--selected' : ''}${refusedBy ? ' seat-plan__seat--invalid' : ''}`}
      style={{
        left: `${seat.x}%`,
        top: `${seat.y}%`,
        transform: `translate(-50%, -50%) rotate(${seat.rotation}deg)`,
      }}
      aria-label={name}
      aria-pressed={selected}
      aria-describedby={refusedBy}
      onPointerDown={(event) => {
        // The move hook keeps the press from focusing the button: the press selects it.
        button.current?.focus({ preventScroll: true });
        if (!selected) onSelect(seat.key, event.shiftKey || event.ctrlKey || event.metaKey);
        moveProps.onPointerDown?.(event);
      }}
      onClick={(event) => {
        // A pointer's click selected at its press already; Enter and Space come here only.
        if (event.detail === 0)
          onSelect(seat.key, event.shiftKey || event.ctrlKey || event.metaKey);
      }}
      onKeyDown={(event) => {
        if (event.key === 'r' || event.key === 'R') {
          event.preventDefault();
          onRotate(seat.key, event.shiftKey ? -1 : 1);
        } else if (event.key === 'Delete' || event.key === 'Backspace') {
          event.preventDefault();
          onDelete(seat.key);
        } else moveProps.onKeyDown?.(event);
      }}
    >
      {seat.label}
    </button>
  );
});
