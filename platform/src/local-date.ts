// Calendar arithmetic is pure and has one home, @rr/domain (calendar.ts); the services reach it
// through @rr/platform too, with the clock and the zone they read "today" from.
export * from '@rr/domain/calendar';
