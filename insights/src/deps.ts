import type { BookingLimits, Pool, WhatIfSettings } from '@rr/platform';

/** What the insights' routes read: the read models, and how the what-if replays run. */
export interface InsightsDeps {
  /** The read models' pool (a replica when the query side reads from one). */
  pool: Pool;
  timeZone: string;
  /** The booking rules' limits from the config: the actual rules a what-if replay changes. */
  limits: BookingLimits;
  /** How the what-if replays run (WHAT_IF_…, the database they read). */
  whatIf: WhatIfSettings;
  /** The first site's name before staff changed it (LIBRARY_NAME): the CSVs' "Standort". */
  libraryName?: string | undefined;
}
