import { baseApi } from '../../../api/base-api';
import type { Room, TimeSlot } from '../../../api/types';
import type { components } from '../../../api/schema';
import { SAVED_ANSWER_HEADER } from '../../../lib/offline-caches';

type Schemas = components['schemas'];

/** Answer of every cart command: the cart's tickets, its new expiry and (after an add) the new ticket. */
export type CartAnswer = Schemas['CartAnswer'];
export type CartTicket = Schemas['CartTicket'];
/** `GET transactions/{id}`: status NEW, BOOKED, EXPIRED or REMOVED. */
export type Cart = Schemas['Transaction'];
export type Ticket = Schemas['Ticket'];
/** A booking's tickets as read (`saved`: the service worker's saved answer, given offline). */
export interface OwnerTickets {
  tickets: Ticket[];
  saved: boolean;
}
export type BookingResult = Schemas['BookingResult'];
export type BookingInput = Schemas['BookingInput'];
/** `GET settings`: the server's booking limits (cart size and hold, per-day and per-visitor maxima). */
export type Settings = Schemas['Settings'];
export type Library = Schemas['Library'];
/** Joining a full slot's waitlist, and the place in line. */
export type WaitlistInput = Schemas['WaitlistInput'];
export type WaitlistEntryAnswer = Schemas['WaitlistEntryAnswer'];
/** `GET waitlist/{reference}`: the place in line and the slot waited for. */
export type WaitlistPlace = Schemas['WaitlistPlace'];
/** `GET rooms/{id}/calendar`: the room's booking window and the range's holidays. */
export type RoomCalendar = Schemas['RoomCalendar'];
/** `GET my-bookings/{token}/tickets`: the link's address's booked tickets from today on. */
export type MyBookings = Schemas['MyBookings'];
export type SignedInBookings = Schemas['SignedInBookings'];
export type MyBookingsLinkInput = Schemas['MyBookingsLinkInput'];

/** One seat of a room's plan (`GET rooms/{id}/seat-plan`): x and y in per cent of the plan. */
export type PlanSeat = Schemas['PlanSeat'];
/** A room's seat plan: no seats, no plan (every ticket then goes without a seat). */
export type SeatPlan = Schemas['SeatPlan'];
/** One seat of a slot (`GET rooms/{id}/timeslots/{slotId}/seats`): free, taken or out of service. */
export type SlotSeat = Schemas['SlotSeat'];
/** The seat a ticket wants: that seat, or any free one with these attributes (none: any seat). */
export type SeatWish = Pick<Schemas['TicketCreation'], 'seatId' | 'seatAttributes'>;

export interface SlotsQuery {
  roomId: string;
  /** With a cart the slots carry the cart's rules (already in the cart, overlapping, cart or day full). */
  transactionId: string | null;
  fromDate: string;
  untilDate: string;
}

export interface AddTicketArgs {
  /** Null: the first add creates the cart. */
  transactionId: string | null;
  timeSlotId: string;
  /** The human check token (only when it is configured). */
  recaptchaToken?: string | undefined;
  /** In a room with a seat plan: the seat wished for (none: the server picks the best free one). */
  wish?: SeatWish | undefined;
}

const enc = encodeURIComponent;
const cartPath = (id: string) => `transactions/${enc(id)}`;

/** What a visit reads (settings, room, slots, its calendar) and the cart up to its booking. */
const cartApi = baseApi
  .enhanceEndpoints({
    addTagTypes: [
      'Cart',
      'VisitorSlots',
      'SlotSeats',
      'OwnerTickets',
      'MyBookings',
      'WaitlistPlace',
    ],
  })
  .injectEndpoints({
    endpoints: (build) => ({
      // The configuration of the server: read once per visit.
      getSettings: build.query<Settings, void>({
        query: () => 'settings',
        keepUnusedDataFor: 3600,
      }),
      // Whom to write to where an address is refused (`GET library`): read once per visit.
      getLibrary: build.query<Library, void>({
        query: () => 'library',
        keepUnusedDataFor: 3600,
      }),
      getBookingRoom: build.query<Room, string>({
        query: (id) => `rooms/${enc(id)}`,
        providesTags: (_result, _error, id) => [{ type: 'Room', id }],
      }),
      getBookableSlots: build.query<TimeSlot[], SlotsQuery>({
        query: ({ roomId, transactionId, fromDate, untilDate }) => ({
          url: transactionId
            ? `${cartPath(transactionId)}/rooms/${enc(roomId)}/available-timeslots`
            : `rooms/${enc(roomId)}/booking`,
          params: { fromDate, untilDate },
        }),
        providesTags: ['VisitorSlots'],
      }),
      /** The room's seats and plan image: with seats, a slot's seat is picked before it is added. */
      getSeatPlan: build.query<SeatPlan, string>({
        query: (roomId) => `rooms/${enc(roomId)}/seat-plan`,
        keepUnusedDataFor: 600,
      }),
      getSlotSeats: build.query<SlotSeat[], { roomId: string; timeSlotId: string }>({
        query: ({ roomId, timeSlotId }) =>
          `rooms/${enc(roomId)}/timeslots/${enc(timeSlotId)}/seats`,
        providesTags: ['SlotSeats'],
      }),
      getRoomCalendar: build.query<RoomCalendar, Omit<SlotsQuery, 'transactionId'>>({
        query: ({ roomId, fromDate, untilDate }) => ({
          url: `rooms/${enc(roomId)}/calendar`,
          params: { fromDate, untilDate },
        }),
      }),
      getCart: build.query<Cart, string>({
        query: cartPath,
        providesTags: ['Cart'],
      }),
      addTicket: build.mutation<CartAnswer, AddTicketArgs>({
        query: ({ transactionId, timeSlotId, recaptchaToken, wish }) =>
          transactionId
            ? {
                url: `${cartPath(transactionId)}/tickets`,
                method: 'POST',
                body: { timeSlotId, ...wish },
              }
            : {
                url: 'transactions',
                method: 'POST',
                body: { timeSlotId, ...wish },
                params: { 'g-recaptcha-response': recaptchaToken },
              },
        // A failed add refreshes the cart itself (see BookingProvider), before passing the error
        // on; either way the slot's seats are read again (a seat taken meanwhile shows taken).
        invalidatesTags: (result) =>
          result ? ['Cart', 'VisitorSlots', 'SlotSeats'] : ['VisitorSlots', 'SlotSeats'],
      }),
      removeTicket: build.mutation<CartAnswer, { transactionId: string; ticketId: string }>({
        query: ({ transactionId, ticketId }) => ({
          url: `${cartPath(transactionId)}/tickets/${enc(ticketId)}`,
          method: 'DELETE',
        }),
        invalidatesTags: ['Cart', 'VisitorSlots', 'SlotSeats'],
      }),
      /** Keeps the cart alive; the answer's expiry goes straight into the cached cart. */
      touchCart: build.mutation<CartAnswer, string>({
        query: (id) => ({ url: `${cartPath(id)}/touch`, method: 'PUT' }),
        async onQueryStarted(id, { dispatch, queryFulfilled }) {
          try {
            const { data } = await queryFulfilled;
            dispatch(
              cartApi.util.updateQueryData('getCart', id, (cart) => {
                cart.expiredAt = data.expiredAt;
              }),
            );
          } catch {
            dispatch(cartApi.util.invalidateTags(['Cart']));
          }
        },
      }),
      removeCart: build.mutation<unknown, string>({
        query: (id) => ({ url: cartPath(id), method: 'DELETE' }),
        invalidatesTags: ['VisitorSlots'],
      }),
      bookCart: build.mutation<BookingResult, { transactionId: string; owner: BookingInput }>({
        query: ({ transactionId, owner }) => ({
          url: `${cartPath(transactionId)}/booking`,
          method: 'PUT',
          body: owner,
        }),
        invalidatesTags: ['VisitorSlots'],
      }),
      // Whether the address may book, asked when it is entered (204, or the booking's refusal).
      checkEmail: build.mutation<void, { email: string; transactionId: string | null }>({
        query: ({ email, transactionId }) => ({
          url: 'email-check',
          method: 'POST',
          body: transactionId ? { email, transactionId } : { email },
        }),
      }),
    }),
  });

/**
 * After the cart: a full slot's waitlist, the booking's tickets by the links of its mails, and
 * the "my bookings" link of an address.
 */
export const bookingApi = cartApi.injectEndpoints({
  endpoints: (build) => ({
    joinWaitlist: build.mutation<WaitlistEntryAnswer, { timeSlotId: string; body: WaitlistInput }>({
      query: ({ timeSlotId, body }) => ({
        url: `timeslots/${enc(timeSlotId)}/waitlist`,
        method: 'POST',
        body,
      }),
    }),
    /** The place in line by the entry's reference (kept in the session: found after a reload). */
    getWaitlistPlace: build.query<WaitlistPlace, string>({
      query: (reference) => `waitlist/${enc(reference)}`,
      providesTags: (_place, _error, reference) => [{ type: 'WaitlistPlace', id: reference }],
    }),
    /** Leaves the line by the entry's reference (the joining mail's link, the place's button). */
    leaveWaitlist: build.mutation<unknown, string>({
      query: (reference) => ({ url: `waitlist/${enc(reference)}`, method: 'DELETE' }),
      invalidatesTags: (_answer, _error, reference) => [{ type: 'WaitlistPlace', id: reference }],
    }),
    /** Follows an offer's link: the offered seat becomes the first ticket of a new cart. */
    takeOffer: build.mutation<CartAnswer, { timeSlotId: string; offerId: string }>({
      query: ({ timeSlotId, offerId }) => ({
        url: `timeslots/${enc(timeSlotId)}/waitlist/offers/${enc(offerId)}`,
        method: 'POST',
      }),
      invalidatesTags: ['Cart', 'VisitorSlots'],
    }),
    /**
     * A booking's tickets, and whether they are the ones the service worker saved when the page
     * was last read online (it gives them when the network fails).
     */
    getOwnerTickets: build.query<OwnerTickets, string>({
      query: (ownerId) => `owners/${enc(ownerId)}/tickets`,
      transformResponse: (tickets: Ticket[], meta) => ({
        tickets,
        saved: meta?.response?.headers.get(SAVED_ANSWER_HEADER) === '1',
      }),
      providesTags: ['OwnerTickets'],
    }),
    cancelOwnerTickets: build.mutation<unknown, { ownerId: string; ids: string[] }>({
      query: ({ ownerId, ids }) => ({
        url: `owners/${enc(ownerId)}/tickets`,
        method: 'DELETE',
        params: { ids: ids.join(',') },
      }),
      invalidatesTags: ['OwnerTickets', 'VisitorSlots'],
    }),
    /**
     * Confirms the booking's address (confirmed addresses) with the token of the mail's link:
     * posted by a button, never on load.
     */
    confirmOwnerBooking: build.mutation<unknown, { ownerId: string; token: string }>({
      query: ({ ownerId, token }) => ({
        url: `owners/${enc(ownerId)}/confirm`,
        method: 'POST',
        body: { token },
      }),
      invalidatesTags: ['OwnerTickets'],
    }),
    /** Moves a booked ticket to another slot of its room (the new ticket keeps the booking). */
    /** Moves a ticket; in a room with a seat plan with the visitor's seat wish (none: any seat). */
    moveTicket: build.mutation<
      unknown,
      { ownerId: string; ticketId: string; timeSlotId: string; wish?: SeatWish | undefined }
    >({
      query: ({ ownerId, ticketId, timeSlotId, wish }) => ({
        url: `owners/${enc(ownerId)}/tickets/${enc(ticketId)}/move`,
        method: 'POST',
        body: { timeSlotId, ...wish },
      }),
      invalidatesTags: ['OwnerTickets', 'MyBookings', 'VisitorSlots', 'SlotSeats'],
    }),
    /** Changes only the seat of a booked ticket, keeping its slot (a room with a seat plan). */
    changeTicketSeat: build.mutation<
      unknown,
      { ownerId: string; ticketId: string; wish: SeatWish }
    >({
      query: ({ ownerId, ticketId, wish }) => ({
        url: `owners/${enc(ownerId)}/tickets/${enc(ticketId)}/seat`,
        method: 'PUT',
        body: wish,
      }),
      invalidatesTags: ['OwnerTickets', 'MyBookings', 'VisitorSlots', 'SlotSeats'],
    }),
    /** Asks for the "my bookings" link by mail (202 for every address). */
    requestMyBookingsLink: build.mutation<unknown, MyBookingsLinkInput>({
      query: (body) => ({ url: 'my-bookings/link', method: 'POST', body }),
    }),
    getMyBookings: build.query<MyBookings, string>({
      query: (token) => `my-bookings/${enc(token)}/tickets`,
      providesTags: ['MyBookings'],
    }),
    /**
     * The bookings of the visitor signed in with the campus identity (401 for anyone else). Kept
     * no longer than the page shows them: after a sign-out the next visitor of this browser never
     * sees them from the cache.
     */
    getSignedInBookings: build.query<SignedInBookings, void>({
      query: () => 'my-bookings',
      providesTags: ['MyBookings', 'OwnerTickets'],
      keepUnusedDataFor: 0,
    }),
    cancelMyBookingsTickets: build.mutation<unknown, { token: string; ids: string[] }>({
      query: ({ token, ids }) => ({
        url: `my-bookings/${enc(token)}/tickets`,
        method: 'DELETE',
        params: { ids: ids.join(',') },
      }),
      invalidatesTags: ['MyBookings', 'OwnerTickets', 'VisitorSlots'],
    }),
  }),
});

export const {
  useGetSettingsQuery,
  useGetLibraryQuery,
  useGetBookingRoomQuery,
  useGetBookableSlotsQuery,
  useGetRoomCalendarQuery,
  useGetSeatPlanQuery,
  useGetSlotSeatsQuery,
  useGetCartQuery,
  useChangeTicketSeatMutation,
  useAddTicketMutation,
  useRemoveTicketMutation,
  useTouchCartMutation,
  useRemoveCartMutation,
  useBookCartMutation,
  useCheckEmailMutation,
  useJoinWaitlistMutation,
  useGetWaitlistPlaceQuery,
  useLeaveWaitlistMutation,
  useTakeOfferMutation,
  useGetOwnerTicketsQuery,
  useCancelOwnerTicketsMutation,
  useConfirmOwnerBookingMutation,
  useRequestMyBookingsLinkMutation,
  useMoveTicketMutation,
  useGetMyBookingsQuery,
  useCancelMyBookingsTicketsMutation,
  useGetSignedInBookingsQuery,
} = bookingApi;
