import { timeSlotStream } from './timeslot.ts';
import { transactionStream } from './transaction.ts';
import { visitorStream } from './visitor.ts';
import { roomStream } from './room.ts';
import { roomOrderStream } from './room-order.ts';
import { sitesStream } from './sites.ts';
import { holidaysStream } from './holidays.ts';
import { blacklistStream } from './blacklist.ts';
import { noShowStream } from './no-shows.ts';
import { rekeyingStream } from './rekeying.ts';

/** Every kind of stream of the log, each with every event type it holds (one file per stream). */
export const streams = [
  timeSlotStream,
  transactionStream,
  visitorStream,
  roomStream,
  roomOrderStream,
  sitesStream,
  holidaysStream,
  blacklistStream,
  noShowStream,
  rekeyingStream,
] as const;
