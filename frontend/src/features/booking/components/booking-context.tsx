import { skipToken } from '@reduxjs/toolkit/query';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useSyncExternalStore,
} from 'react';
import type { ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useConfig } from '../../../app/config-context';
import { useAppDispatch } from '../../../app/hooks';
import { TICKETS_CACHE } from '../../../lib/offline-caches';
import {
  bookingApi,
  useAddTicketMutation,
  useGetCartQuery,
  useRemoveCartMutation,
  useRemoveTicketMutation,
  useGetSettingsQuery,
  useTakeOfferMutation,
  useTouchCartMutation,
  type Cart,
  type CartAnswer,
  type SeatWish,
  type Settings,
  type Ticket,
} from '../api/booking-api';
import {
  BOOKING_KEYS,
  readExpired,
  readItem,
  subscribe,
  writeExpired,
  writeItem,
} from '../lib/booking-storage';
import {
  BookingFailure,
  CART_CHECK_MS,
  isCartExpired,
  isCompleteAddAnswer,
  judgeCart,
  shouldTouch,
} from '../lib/cart';
import { parsePersonalData, type PersonalData } from '../lib/personal-data';
import { humanCheckToken } from '../lib/recaptcha';

export interface BookingState {
  transactionId: string | null;
  /** The cart as the server last answered; undefined without a cart or while it loads. */
  cart: Cart | undefined;
  /** The cart's tickets (empty without a cart). */
  tickets: readonly Ticket[];
  cartLoading: boolean;
  /** The server's booking limits (`GET settings`); undefined while they load or when they fail. */
  settings: Settings | undefined;
  personalData: PersonalData | null;
  /**
   * The cart expired while the visitor filled in the data form (which stays, with what was
   * typed, and says so); cleared by the next add.
   */
  expired: boolean;
  /**
   * Adds a slot to the cart, creating the cart (with the human check) on the first add; in a
   * room with a seat plan with the seat wished for.
   */
  addTicket: (timeSlotId: string, wish?: SeatWish) => Promise<CartAnswer>;
  removeTicket: (ticketId: string) => Promise<void>;
  /**
   * Follows a waitlist offer: the offered seat becomes the first ticket of a new
   * cart, which becomes the visitor's cart as after a first add.
   */
  takeOffer: (timeSlotId: string, offerId: string) => Promise<CartAnswer>;
  /** Keeps the cart alive (on the way to the next step). */
  touch: () => void;
  /**
   * Resolves once the touch in flight (if any) has been answered. Booking waits for it: a touch
   * the server handled after the booking would be refused (the cart is booked), a stray 409.
   */
  touchSettled: () => Promise<void>;
  /** Keeps the cart alive while the visitor is busy (at most once a minute, when it expires soon). */
  touchOnActivity: () => void;
  savePersonalData: (data: PersonalData) => void;
  /** The booking just made (its owner id) while no new cart has started; else null. */
  bookedOwnerId: string | null;
  /** After booking: the cart and the personal data are gone; the booking's owner id is kept. */
  finishBooking: (ownerId?: string) => void;
  /** The panic button: removes the cart and the personal data and starts again at `/?reset=y`. */
  panic: () => Promise<void>;
}

const BookingContext = createContext<BookingState | null>(null);

export function useBooking(): BookingState {
  const state = useContext(BookingContext);
  if (!state) throw new Error('useBooking must be used inside BookingProvider');
  return state;
}

const NO_TICKETS: readonly Ticket[] = [];

const setTransactionId = (id: string | null) => writeItem(BOOKING_KEYS.transactionId, id);
const setPersonalData = (data: PersonalData | null) =>
  writeItem(BOOKING_KEYS.personalData, data ? JSON.stringify(data) : null);
const finishBooking = (ownerId?: string) => {
  setTransactionId(null);
  setPersonalData(null);
  writeItem(BOOKING_KEYS.bookedOwnerId, ownerId ?? null);
};

/** The history state of `/?reset=y` after an expired cart: the chooser names the expiry. */
const EXPIRED_STATE = { expired: true } as const;

/** The route of the data form, where an expiry leaves the visitor. */
const DATA_FORM = '/your-personal-data';

/**
 * The visitor's cart as the server answers it, judged on every answer: a cart found expired
 * (checked every 5 seconds) sends the visitor to start again, except on the data form; one that
 * is gone or bad is forgotten.
 */
function useCartWatch(transactionId: string | null) {
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const onDataForm = pathname === DATA_FORM;
  const query = useGetCartQuery(transactionId ?? skipToken);
  const { currentData: cart, error, isFetching, refetch } = query;

  useEffect(() => {
    if (!transactionId || isFetching) return;
    const verdict = judgeCart(cart, error);
    if (verdict === 'keep') return;
    setTransactionId(null);
    if (verdict !== 'expired') return;
    writeExpired(true);
    if (!onDataForm) void navigate('/?reset=y', { state: EXPIRED_STATE });
  }, [transactionId, cart, error, isFetching, navigate, onDataForm]);

  useEffect(() => {
    if (!cart) return;
    const timer = window.setInterval(() => {
      if (isCartExpired(cart.expiredAt, Date.now())) void refetch();
    }, CART_CHECK_MS);
    return () => window.clearInterval(timer);
  }, [cart, refetch]);

  return { cart, error };
}

/**
 * The visitor's cart and personal data (docs/product.md#entities and #states), kept in the
 * browser session. Checks the cart's expiry every 5 seconds: an expired cart is refreshed from
 * the server, and if it is still expired the visitor starts again at `/?reset=y` (with the
 * expiry message), except on the data form, which stays with what was typed and says the cart
 * expired. A refresh that finds no cart, a bad answer or no tickets forgets the local
 * transaction.
 */
export function BookingProvider({ children }: { children: ReactNode }) {
  const { recaptchaPublicToken, recaptchaSrc } = useConfig();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const expired = useSyncExternalStore(subscribe, readExpired);
  const transactionId = useSyncExternalStore(subscribe, () => readItem(BOOKING_KEYS.transactionId));
  const rawPersonalData = useSyncExternalStore(subscribe, () =>
    readItem(BOOKING_KEYS.personalData),
  );
  const personalData = useMemo(() => parsePersonalData(rawPersonalData), [rawPersonalData]);
  const bookedOwnerId = useSyncExternalStore(subscribe, () => readItem(BOOKING_KEYS.bookedOwnerId));
  const { data: settings } = useGetSettingsQuery();
  const { cart, error } = useCartWatch(transactionId);
  const [add] = useAddTicketMutation();
  const [remove] = useRemoveTicketMutation();
  const [touchCart] = useTouchCartMutation();
  const [removeCart] = useRemoveCartMutation();
  const [take] = useTakeOfferMutation();
  const lastTouch = useRef(0);
  const touchInFlight = useRef<Promise<unknown>>(Promise.resolve());

  const refreshCart = useCallback(
    (id: string) =>
      dispatch(bookingApi.endpoints.getCart.initiate(id, { subscribe: false, forceRefetch: true })),
    [dispatch],
  );

  /** A cart answer becomes the visitor's cart (docs/product.md#errors: an incomplete one is a failure). */
  const adopt = useCallback(
    (answer: CartAnswer) => {
      if (!isCompleteAddAnswer(answer)) throw new BookingFailure('unknown');
      if (answer.transactionId !== transactionId) {
        setTransactionId(answer.transactionId);
        writeItem(BOOKING_KEYS.bookedOwnerId, null);
      }
      writeExpired(false);
      return answer;
    },
    [transactionId],
  );

  const addTicket = useCallback(
    async (timeSlotId: string, wish?: SeatWish) => {
      let recaptchaToken: string | undefined;
      if (!transactionId) {
        try {
          recaptchaToken = await humanCheckToken(recaptchaPublicToken, recaptchaSrc);
        } catch {
          throw new BookingFailure('recaptcha__validation_error');
        }
      }
      try {
        return adopt(await add({ transactionId, timeSlotId, recaptchaToken, wish }).unwrap());
      } catch (failure) {
        // docs/product.md#errors: a failed add refreshes the cart, then passes the error on.
        if (transactionId) await refreshCart(transactionId);
        throw failure;
      }
    },
    [transactionId, recaptchaPublicToken, recaptchaSrc, add, refreshCart, adopt],
  );

  const takeOffer = useCallback(
    async (timeSlotId: string, offerId: string) =>
      adopt(await take({ timeSlotId, offerId }).unwrap()),
    [take, adopt],
  );

  const removeTicket = useCallback(
    async (ticketId: string) => {
      if (transactionId) await remove({ transactionId, ticketId }).unwrap();
    },
    [transactionId, remove],
  );

  const touch = useCallback(() => {
    if (!transactionId) return;
    lastTouch.current = Date.now();
    touchInFlight.current = touchCart(transactionId);
  }, [transactionId, touchCart]);

  const touchSettled = useCallback(async () => {
    await touchInFlight.current;
  }, []);

  const expiredAt = cart?.expiredAt;
  const holdMinutes = settings?.holdMinutes;
  const touchOnActivity = useCallback(() => {
    if (shouldTouch(expiredAt, Date.now(), lastTouch.current, holdMinutes)) touch();
  }, [expiredAt, holdMinutes, touch]);

  const panic = useCallback(async () => {
    if (transactionId) {
      try {
        await removeCart(transactionId).unwrap();
      } catch {
        // Already gone or unreachable: the holds expire on their own.
      }
    }
    finishBooking();
    writeExpired(false);
    // The tickets the service worker saved for offline use are personal data in the browser too.
    if ('caches' in window) await caches.delete(TICKETS_CACHE);
    await navigate('/?reset=y');
  }, [transactionId, removeCart, navigate]);

  const value = useMemo<BookingState>(
    () => ({
      transactionId,
      cart,
      tickets: cart?.tickets ?? NO_TICKETS,
      cartLoading: transactionId !== null && cart === undefined && !error,
      settings,
      personalData,
      expired,
      addTicket,
      removeTicket,
      takeOffer,
      touch,
      touchSettled,
      touchOnActivity,
      savePersonalData: setPersonalData,
      bookedOwnerId,
      finishBooking,
      panic,
    }),
    [
      transactionId,
      bookedOwnerId,
      cart,
      error,
      settings,
      personalData,
      expired,
      addTicket,
      removeTicket,
      takeOffer,
      touch,
      touchSettled,
      touchOnActivity,
      panic,
    ],
  );

  return <BookingContext value={value}>{children}</BookingContext>;
}
