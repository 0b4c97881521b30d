import { randomUUID } from 'node:crypto';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { type Actor, type StoreSession } from '@rr/events';
import {
  decideHoliday,
  type HolidayCommand,
  type HolidayCommandState,
  type HolidayDecision,
  type HolidayDetails,
} from '@rr/domain';
import type { CommandDeps } from '../deps.ts';
import { handleCommand } from '../command.ts';
import { holidayIdentitiesOn, holidaysById, lockHolidays } from './state.ts';
import { appendToHolidays } from '../streams/holidays.ts';
import { lockAndLoadSites } from '../streams/sites.ts';
import { FIRST_SITE_ID } from '@rr/contracts/sites';
import { siteExists } from '@rr/domain';

/** The holidays stream (one for all holidays): the loader of its commands and their runs. */

/**
 * Loads what a holiday command decides on: the holidays stream is locked (writers queue), then
 * the `holiday_state` rows the command names (one holiday, or the holidays on an import batch's
 * dates): a command's cost does not grow with the number of holidays.
 */
async function loadHolidays(
  s: StoreSession,
  command: HolidayCommand,
): Promise<HolidayCommandState & { version: number }> {
  const version = await lockHolidays(s);
  switch (command.type) {
    case 'CreateHoliday':
      return {
        version,
        holidays: new Map(),
        identities: new Set(),
        ...(await siteOf(s, command.data.siteId)),
      };
    case 'UpdateHoliday':
    case 'DeleteHoliday':
      return {
        version,
        holidays: await holidaysById(s.client, [command.data.holidayId]),
        identities: new Set(),
        ...(command.type === 'UpdateHoliday' ? await siteOf(s, command.data.siteId) : {}),
      };
    case 'ImportHolidays':
      return {
        version,
        ...(await siteOf(s, command.data.siteId)),
        holidays: new Map(),
        identities: await holidayIdentitiesOn(
          s.client,
          command.data.holidays.map((h) => h.date),
        ),
      };
  }
}

/**
 * Whether the site a holiday names exists: the sites are read under their lock (a site being
 * deleted waits or is gone). No site, or the first (never deleted): nothing to read.
 */
async function siteOf(s: StoreSession, siteId: string | undefined) {
  if (siteId === undefined || siteId === FIRST_SITE_ID) return {};
  return { siteExists: siteExists(await lockAndLoadSites(s), siteId) };
}

/** Runs a holiday command; answers its decision (the events, an import's duplicates). */
export function runHolidayCommand(deps: CommandDeps, actor: Actor, command: HolidayCommand) {
  return handleCommand(deps.store, {
    actor,
    load: (s) => loadHolidays(s, command),
    decide: (state) => decideHoliday(command, state, { newId: randomUUID }),
    appends: (decision: HolidayDecision, state) => appendToHolidays(state, decision.events),
    answer: (decision) => decision,
  });
}

/**
 * Holidays of one import appended per transaction: each batch is one short transaction (the read
 * models' gap-safe subscriptions wait behind open ones) and the event loop turns between them.
 */
export const IMPORT_BATCH = 500;

/** Imports the holidays read from a calendar, IMPORT_BATCH at a time; the last batch's position. */
export async function importHolidays(
  deps: CommandDeps,
  actor: Actor,
  read: readonly HolidayDetails[],
  siteId?: string,
): Promise<{
  imported: number;
  duplicates: number;
  position: string;
  days: { date: string; name: string }[];
}> {
  let imported = 0;
  let duplicates = 0;
  let position = '0_0';
  const days: { date: string; name: string }[] = [];
  const holidays = siteId ? read.map((h) => ({ ...h, siteId })) : read;
  // A file without holidays is still one (empty) batch: the site it names must exist.
  for (let at = 0; at < Math.max(holidays.length, 1); at += IMPORT_BATCH) {
    const batch = holidays.slice(at, at + IMPORT_BATCH);
    const written = await runHolidayCommand(deps, actor, {
      type: 'ImportHolidays',
      data: { holidays: batch, siteId },
    });
    imported += written.answer.events.length;
    for (const e of written.answer.events)
      if (e.type === 'HolidayCreated') days.push({ date: e.data.date, name: e.data.name });
    duplicates += written.answer.duplicates;
    if (written.answer.events.length) position = written.position;
    await yieldToEventLoop();
  }
  return { imported, duplicates, position, days };
}
