import { useConfig } from '../app/config-context';
import { resolveApiUrl } from '../lib/url';
import { SeatMark, type DeskSeatState } from './seat-mark';

/** A seat at its place on the plan, in per cent of the plan's width and height. */
export interface PlacedSeat {
  id: string;
  label: string;
  x: number;
  y: number;
  rotation: number;
  state: DeskSeatState;
}

/**
 * The seats of a slot at their places on the room's plan (its image, always an `<img>` so an SVG
 * runs nothing, or a grid), each with its mark. A picture for the eye: the screens showing it say
 * the same in words beside it, so it is hidden from screen readers. `block` names the CSS block
 * of the screen it is drawn on (`desk-seat-plan`, `display-seat-plan`).
 */
export function SeatPlanPicture({
  block,
  image,
  seats,
}: {
  block: string;
  image: { url: string } | null | undefined;
  seats: readonly PlacedSeat[];
}) {
  const { baseApiUrl } = useConfig();
  return (
    <div className={`${block}__canvas${image ? '' : ` ${block}__canvas--grid`}`} aria-hidden="true">
      {image ? (
        <img className={`${block}__image`} src={resolveApiUrl(baseApiUrl, image.url)} alt="" />
      ) : null}
      {seats.map((seat) => (
        <span
          key={seat.id}
          className={`${block}__seat`}
          data-seat-label={seat.label}
          data-state={seat.state}
          style={{ left: `${seat.x}%`, top: `${seat.y}%` }}
        >
          <span style={{ transform: `rotate(${seat.rotation}deg)` }}>
            <SeatMark state={seat.state} rotation={seat.rotation} />
          </span>
          <span className={`${block}__label`}>{seat.label}</span>
        </span>
      ))}
    </div>
  );
}
