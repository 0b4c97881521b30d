/**
 * The worker thread of the what-if replay (what-if.ts): replays each slot through the cart
 * decider (`replaySlot`, @rr/domain) and answers the outcomes. It shares nothing with the server.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  replaySlot,
  type BookingLimits,
  type RoomState,
  type SlotOutcome,
  type WhatIfChange,
  type WhatIfSlot,
} from '@rr/domain';

export interface WhatIfWork {
  slots: WhatIfSlot[];
  room: RoomState;
  limits: BookingLimits;
  change: WhatIfChange;
}

export type WhatIfAnswer = { ok: true; slots: SlotOutcome[] } | { ok: false; error: string };

const work = workerData as WhatIfWork;

function answer(): WhatIfAnswer {
  try {
    return {
      ok: true,
      slots: work.slots.map((slot) => replaySlot(slot, work.room, work.limits, work.change)),
    };
  } catch (err) {
    return { ok: false, error: String(err) };
  }
}

parentPort?.postMessage(answer());
