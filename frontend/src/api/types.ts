/**
 * API types, aliases of the ones generated from the backend's OpenAPI document
 * (`npm run openapi` at the root, then `npm run gen:api -w frontend`; see ./schema.d.ts).
 */
import type { components, paths } from './schema';

type Schemas = components['schemas'];

export type Room = Schemas['Room'];
/** A room for staff: with its booked and held reservations from today on. */
export type StaffRoom = Schemas['StaffRoom'];
export type Insights = Schemas['Insights'];
export type SeatInsights = Schemas['SeatInsights'];
export type WhatIf = Schemas['WhatIf'];
export type OpenOffset = NonNullable<Room['openStart']>;
export type DayType = OpenOffset['type'];
export type RoomCreate = Schemas['RoomInput'];
export type RoomServicesInput = Schemas['RoomServicesInput'];
/** A seat of a room's plan, for staff (its id stays with its label). */
export type PlanSeat = Schemas['Seat'];
export type PlanSeatInput = Schemas['SeatsInput']['seats'][number];
export type SeatsSet = Schemas['SeatsSet'];
export type StaffSeatPlan = Schemas['StaffSeatPlan'];
export type SeatOutOfService = Schemas['SeatOutOfService'];
export type OutOfServiceInput = Schemas['OutOfServiceInput'];
export type OutOfServiceTaken = Schemas['OutOfServiceTaken'];
export type RoomUpdate = Schemas['RoomUpdateInput'];
export type CommandResult = Schemas['RoomWritten'];
export type PositionResult = Schemas['Position'];
export type Me = Schemas['User'];
/** One slot for staff: booked and held seats apart. */
export type AdminTimeSlot = Schemas['AdminTimeSlot'];
export type SessionState = Schemas['SessionState'];
export type SignInProviders = Schemas['SignInProviders'];
export type StaffAccount = Schemas['StaffAccount'];
export type StaffSignIn = Schemas['StaffSignIn'];
export type Problem = Partial<Schemas['Problem']>;
export type TimeSlot = Schemas['TimeSlot'];
export type TimeSlotInput = Schemas['TimeSlotInput'];
export type TimeSlotUpdateInput = Schemas['TimeSlotUpdateInput'];
export type TimeSlotCapacityInput = Schemas['TimeSlotCapacityInput'];
export type TimeSlotsCreated = Schemas['TimeSlotsCreated'];
export type TimeSlotsCapacityUpdated = Schemas['TimeSlotsCapacityUpdated'];
export type TimeSlotStatus = NonNullable<
  NonNullable<paths['/api/admin/rooms/{id}/timeslots']['get']['parameters']['query']>['status']
>;
export type HolidayWritten = Schemas['HolidayWritten'];
export type Holiday = Schemas['Holiday'];
export type HolidayInput = Schemas['HolidayInput'];
export type HolidayUpdateInput = Schemas['HolidayUpdateInput'];
export type HolidayImportResult = Schemas['HolidayImportResult'];
/** A site of the library (docs/product.md#sites) with its room count. */
export type Site = Schemas['Site'];
export type SiteList = Schemas['SiteList'];
export type SiteInput = Schemas['SiteInput'];
export type SiteHoursInput = Schemas['SiteHoursInput'];
export type SiteHours = Schemas['SiteHours'];
export type SiteUpdateInput = Schemas['SiteUpdateInput'];
export type SiteWritten = Schemas['SiteWritten'];
export type ClosurePreview = Schemas['ClosurePreview'];
export type ClosureInput = Schemas['ClosureInput'];
export type ClosureResult = Schemas['ClosureResult'];
export type BlacklistEntry = Schemas['BlacklistEntry'];
export type BlacklistEntryInput = Schemas['BlacklistEntryInput'];
export type BlacklistEntryUpdateInput = Schemas['BlacklistEntryUpdateInput'];
export type NoShowBlock = Schemas['NoShowBlock'];
export type NoShowBlockLifted = Schemas['NoShowBlockLifted'];
export type Ticket = Schemas['Ticket'];
export type TicketStatus = Ticket['status'];
export type OwnerInput = Schemas['OwnerInput'];
export type StaffBookingInput = Schemas['StaffBookingInput'];
export type StaffBookingResult = Schemas['StaffBookingResult'];
export type HistoryEntry = Schemas['HistoryEntry'];
export type OccupancyReportItem = Schemas['OccupancyReport'][number];
export type DailyReport = Schemas['DailyReport'];
export type DailyReportItem = DailyReport['content'][number];
/** The occupancy display: rooms with their current and next slots. */
export type Display = Schemas['Display'];
export type DisplayRoom = Schemas['DisplayRoom'];
export type DisplaySlot = Schemas['DisplaySlot'];

/** Spec "paged list". */
export interface Page<T> {
  content: T[];
  totalCount: number;
}

/** Query of the room lists (name, term, limit, offset, sort as `field:ASC|DESC`). */
export type ListQuery = Partial<{
  name: string;
  term: string;
  limit: number;
  offset: number;
  sort: string;
  /** Only the rooms of the site with this slug (docs/product.md#sites). */
  site: string;
}>;

export interface Credentials {
  username: string;
  password: string;
}
export type ApiToken = Schemas['ApiToken'];
export type CreatedApiToken = Schemas['CreatedApiToken'];
export type ApiTokenInput = Schemas['ApiTokenInput'];
export type WebhookEndpoint = Schemas['WebhookEndpoint'];
export type CreatedWebhookEndpoint = Schemas['CreatedWebhookEndpoint'];
export type WebhookInput = Schemas['WebhookInput'];
export type WebhookUpdateInput = Schemas['WebhookUpdateInput'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
