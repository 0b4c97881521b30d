import { useId, useRef, useState, type KeyboardEvent } from 'react';
import {
  TransformComponent,
  TransformWrapper,
  type ReactZoomPanPinchContentRef,
} from 'react-zoom-pan-pinch';
import type { SeatState } from '@rr/contracts/seats';
import { useConfig } from '../../../app/config-context';
import { resolveApiUrl } from '../../../lib/url';
import type { PlanSeat, SeatPlan } from '../api/booking-api';
import { directionOf, nearestSeat, startSeat } from '../lib/seats';
import { SeatMark } from '../../../components/seat-mark';
import { useSeatPickerTranslation } from './seat-picker-texts';
import { useSeatText } from './seat-text';

/** A seat of the plan with its state in the slot and whether it has the filters' attributes. */
export interface ShownSeat extends PlanSeat {
  state: SeatState;
  matches: boolean;
}

/** A plan without an image: a grid of 4:3, the usual shape of a room's drawing (an image brings its own). */
const DEFAULT_ASPECT = 4 / 3;

interface SeatPlanViewProps {
  plan: SeatPlan;
  seats: readonly ShownSeat[];
  chosen: string | null;
  onChoose: (id: string) => void;
}

/**
 * The plan: the room's drawing (an `<img>`, never inlined) or a plain grid, with each seat at its
 * place and rotation. It is one tab stop (a listbox with a roving focus): the arrow keys move to
 * the nearest seat that way, Enter or Space picks a free one. Seats without the filters'
 * attributes are dimmed. Pinch, or the +, − and whole-plan buttons, zoom it; zoomed in, it pans.
 */
export function SeatPlanView({ plan, seats, chosen, onChoose }: SeatPlanViewProps) {
  const { t } = useSeatPickerTranslation();
  const { baseApiUrl } = useConfig();
  const seatText = useSeatText();
  const hintId = useId();
  const canvas = useRef<HTMLDivElement>(null);
  const controls = useRef<ReactZoomPanPinchContentRef | null>(null);
  const [focused, setFocused] = useState<string | null>(null);
  const [zoomed, setZoomed] = useState(false);
  const tabStop =
    seats.find((seat) => seat.id === focused) ?? startSeat(seats, chosen) ?? undefined;
  const { image } = plan;

  const focusSeat = (seat: ShownSeat) => {
    setFocused(seat.id);
    const element = canvas.current?.querySelector<HTMLElement>(`[data-seat="${seat.id}"]`);
    element?.focus({ preventScroll: zoomed });
    // Zoomed in, the seat comes into the visible part of the plan at the same scale.
    const zoom = controls.current;
    if (zoomed && element && zoom) void zoom.zoomToElement(element, zoom.state.scale, 150);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const from = tabStop;
    if (!from) return;
    const direction = directionOf(event.key);
    if (direction) {
      event.preventDefault();
      const box = canvas.current?.getBoundingClientRect();
      const ratio = box && box.height > 0 ? box.width / box.height : DEFAULT_ASPECT;
      const next = nearestSeat(seats, from, direction, ratio);
      if (next) focusSeat(next);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (from.state === 'free') onChoose(from.id);
    }
  };

  return (
    <div className="seat-plan">
      <TransformWrapper
        minScale={1}
        maxScale={4}
        doubleClick={{ disabled: true }}
        wheel={{ activationKeys: ['Control'] }}
        // At the whole plan a finger scrolls the page; zoomed in, it pans the plan.
        panning={{ disabled: !zoomed }}
        onTransform={(_ref, state) => setZoomed(state.scale > 1.01)}
      >
        {(zoom) => {
          controls.current = zoom;
          return (
            <>
              <div className="seat-plan__zoom">
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => zoom.zoomIn()}
                >
                  <span aria-hidden="true">+</span>
                  <span className="visually-hidden">{t('seats.zoom-in')}</span>
                </button>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => zoom.zoomOut()}
                >
                  <span aria-hidden="true">−</span>
                  <span className="visually-hidden">{t('seats.zoom-out')}</span>
                </button>
                <button
                  type="button"
                  className="button button--small"
                  onClick={() => zoom.resetTransform()}
                >
                  {t('seats.zoom-reset')}
                </button>
              </div>
              <TransformComponent
                wrapperClass="seat-plan__viewport"
                contentClass="seat-plan__content"
              >
                <div
                  ref={canvas}
                  className={`seat-plan__canvas${image ? '' : ' seat-plan__canvas--grid'}`}
                  style={image ? undefined : { aspectRatio: String(DEFAULT_ASPECT) }}
                >
                  {image ? (
                    <img
                      className="seat-plan__image"
                      src={resolveApiUrl(baseApiUrl, image.url)}
                      alt=""
                      draggable={false}
                    />
                  ) : null}
                  <div
                    className="seat-plan__seats"
                    role="listbox"
                    aria-label={t('seats.plan')}
                    aria-describedby={hintId}
                    onKeyDown={onKeyDown}
                  >
                    {seats.map((seat) => (
                      <div
                        key={seat.id}
                        data-seat={seat.id}
                        role="option"
                        aria-selected={seat.id === chosen}
                        aria-disabled={seat.state !== 'free' || undefined}
                        aria-label={seatText(seat, seat.state)}
                        tabIndex={seat.id === tabStop?.id ? 0 : -1}
                        className={`seat${seat.matches ? '' : ' seat--dimmed'}`}
                        style={{ left: `${seat.x}%`, top: `${seat.y}%` }}
                        onFocus={() => setFocused(seat.id)}
                        onClick={() => {
                          setFocused(seat.id);
                          if (seat.state === 'free') onChoose(seat.id);
                        }}
                      >
                        <span
                          className="seat__shape"
                          style={{ transform: `rotate(${seat.rotation}deg)` }}
                        >
                          <SeatMark
                            state={seat.state}
                            chosen={seat.id === chosen}
                            rotation={seat.rotation}
                          />
                        </span>
                        <span className="seat__label" aria-hidden="true">
                          {seat.label}
                        </span>
                      </div>
                    ))}
                  </div>
                </div>
              </TransformComponent>
            </>
          );
        }}
      </TransformWrapper>
      <p id={hintId} className="seat-plan__hint">
        {t('seats.plan-hint')}
      </p>
    </div>
  );
}
