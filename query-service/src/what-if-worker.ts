/**
 * The worker thread of the what-if replay (what-if.ts): replays the history through the cart
 * decider (`replay`, @rr/domain) and answers the slots' outcomes. It shares nothing with the server.
 */
import { parentPort, workerData } from 'node:worker_threads';
import {
  replay,
  type BookingLimits,
  type RoomState,
  type SlotOutcome,
  type WhatIfChange,
  type WhatIfHistory,
} from '@rr/domain';

export interface WhatIfWork {
  history: WhatIfHistory;
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
      slots: replay(work.history, work.room, work.limits, work.change),
    };
  } catch (err) {
    return { ok: false, error: String(err) };
  }
}

parentPort?.postMessage(answer());
