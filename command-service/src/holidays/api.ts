import { randomUUID } from 'node:crypto';
import multer from 'multer';
import type { Request, Response } from 'express';
import { todayIn, type HolidayCommand } from '@rr/domain';
import {
  check,
  HolidayImportInput,
  HolidayImportQuery,
  HolidayInput,
  MAX_CALENDAR_BYTES,
  messages,
} from '@rr/contracts';
import {
  defineRoute,
  fromContract,
  Problem,
  problems,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { importHolidays, runHolidayCommand } from './stream.ts';
import { readCalendarOffThread } from './calendar-reader.ts';
import { calendarImportLimits } from './import-window.ts';

// Holiday and holiday import (docs/product.md#validation): the rules are the contracts' (shared with the browser).
const HolidayBody = fromContract(HolidayInput).openapi('HolidayInput');
const HolidayUpdateBody = HolidayBody.extend({ version: z.number().int().min(1) }).openapi(
  'HolidayUpdateInput',
);
const IdParams = z.object({ id: z.uuid('Not a valid id') });
const ImportQuery = fromContract(HolidayImportQuery);

/** A holiday's details as its events hold them: the site only when it is of one. */
const details = (b: z.output<typeof HolidayBody>) => {
  const { siteId, ...rest } = b;
  return { ...rest, ...(siteId ? { siteId } : {}) };
};
const Written = z
  .object({ id: z.uuid(), version: z.number(), position: z.string() })
  .openapi('HolidayWritten');
const Imported = z
  .object({
    imported: z.number().openapi({ description: 'Holidays (days) created' }),
    skipped: z.number().openapi({
      description: 'Everything not imported: duplicates + outOfWindow + ignored',
    }),
    duplicates: z.number().openapi({
      description: 'Days that exist already (same date and name) or that the file names twice',
    }),
    outOfWindow: z.number().openapi({
      description: 'Days outside the import window (a series without end is read up to its end)',
    }),
    ignored: z.number().openapi({ description: 'Events that are no holiday: timed, or unnamed' }),
    window: z
      .object({ from: z.string(), until: z.string() })
      .openapi({ description: 'The days imported: whole years around today (config)' }),
    upcoming: z.array(z.object({ date: z.string(), name: z.string() })).openapi({
      description:
        'The holidays created from today on (at most CLOSURE_MAX_DAYS, by date): the staff app offers to close their slots',
    }),
    position: z.string(),
  })
  .openapi('HolidayImportResult');

export function holidayCommandRoutes(deps: CommandDeps): RouteDef[] {
  const execute = (user: SessionUser | undefined, command: HolidayCommand) =>
    runHolidayCommand(deps, actorOf(user), command);

  return [
    defineRoute({
      method: 'post',
      path: '/admin/holidays',
      summary: 'Create a holiday',
      tags: ['holidays'],
      access: ['admin'],
      // A holiday of one site: an admin of that site; of every site: an admin of all sites.
      sites: { body: { siteId: 'site-or-all' } },
      body: HolidayBody,
      responses: {
        201: { description: 'Created', schema: Written },
        400: { description: 'validation__error: a site that does not exist (siteId)' },
      },
      handler: async ({ body, user }) => {
        const holidayId = randomUUID();
        const { position } = await execute(user, {
          type: 'CreateHoliday',
          data: { holidayId, ...details(body) },
        });
        return { status: 201, body: { id: holidayId, version: 1, position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/holidays/{id}',
      summary: 'Update a holiday (version must be the current one)',
      tags: ['holidays'],
      access: ['admin'],
      // Its site now and the one it moves to must both be hers.
      sites: { path: { id: 'holiday' }, body: { siteId: 'site-or-all' } },
      params: IdParams,
      body: HolidayUpdateBody,
      responses: {
        200: { description: 'Updated', schema: Written },
        400: { description: 'validation__error: a site that does not exist (siteId)' },
        404: { description: 'No such holiday' },
        409: { description: 'Stale version' },
      },
      handler: async ({ params, body, user }) => {
        const { version, ...rest } = body;
        const { answer, position } = await execute(user, {
          type: 'UpdateHoliday',
          data: { holidayId: params.id, version, ...details(rest) },
        });
        return { body: { id: params.id, version: body.version + answer.events.length, position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/holidays/{id}',
      summary: 'Delete a holiday',
      tags: ['holidays'],
      access: ['admin'],
      sites: { path: { id: 'holiday' } },
      params: IdParams,
      responses: {
        200: { description: 'Deleted', schema: z.object({ position: z.string() }) },
        404: { description: 'No such holiday' },
      },
      handler: async ({ params, user }) => {
        const { position } = await execute(user, {
          type: 'DeleteHoliday',
          data: { holidayId: params.id },
        });
        return { body: { position } };
      },
    }),
    holidayImportRoute(deps),
  ];
}

/** The import of an iCalendar file (docs/product.md#holiday-import), for every site or one. */
function holidayImportRoute(deps: CommandDeps): RouteDef {
  const upload = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: MAX_CALENDAR_BYTES, files: 1, fields: 2 },
  });
  const parseUpload = (req: Request, res: Response) =>
    new Promise<void>((resolve, reject) =>
      upload.single('file')(req, res, (err: unknown) => {
        if (!err) return resolve();
        if ((err as { code?: string }).code === 'LIMIT_FILE_SIZE')
          return reject(
            new Problem(400, 'calendar__too_large', 'The calendar file is larger than 5 MB'),
          );
        reject(problems.badRequest('validation__error', 'The upload is not valid'));
      }),
    );

  return defineRoute({
    method: 'post',
    path: '/admin/holidays/ical',
    summary:
      'Import holidays from an iCalendar file (all-day events; re-importing creates no duplicates)',
    tags: ['holidays'],
    access: ['admin'],
    // The site of the imported holidays is a query parameter: known before the upload is read.
    sites: { query: { siteId: 'site-or-all' } },
    query: ImportQuery,
    multipart: z.object({ file: z.string().openapi({ format: 'binary' }) }),
    responses: {
      200: { description: 'Imported', schema: Imported },
      400: { description: 'validation__error: a site that does not exist (siteId)' },
    },
    handler: async ({ req, res, user, query }) => {
      if (!req.is('multipart/form-data'))
        throw problems.badRequest(
          'validation__error',
          'Send multipart/form-data with the field file',
        );
      await parseUpload(req, res);
      const file = req.file;
      const checked = check(HolidayImportInput, {
        file: file && { name: file.originalname, type: file.mimetype, size: file.size },
      });
      if (!checked.ok || !file) {
        const rule = checked.ok ? undefined : checked.errors.file?.key;
        if (rule === 'calendar-type')
          throw new Problem(400, 'calendar__invalid_file', 'Not an iCalendar file');
        if (rule === 'calendar-size')
          throw new Problem(400, 'calendar__too_large', 'The calendar file is larger than 5 MB');
        throw problems.validation([
          { field: 'file', rule: 'required', message: messages.required },
        ]);
      }
      const limits = calendarImportLimits(deps.calendarImport, deps.clock.now(), deps.timeZone);
      const reading = await readCalendarOffThread(file.buffer, limits, {
        timeoutMs: deps.calendarImport.readTimeoutMs,
      });
      const {
        imported,
        duplicates: known,
        position,
        days,
      } = await importHolidays(deps, actorOf(user), reading.holidays, query.siteId);
      const today = todayIn(deps.clock.now(), deps.timeZone);
      const upcoming = days
        .filter((d) => d.date >= today)
        .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
        .slice(0, deps.closureMaxDays);
      const duplicates = reading.repeated + known;
      const body = {
        imported,
        skipped: duplicates + reading.outOfWindow + reading.ignored,
        duplicates,
        outOfWindow: reading.outOfWindow,
        ignored: reading.ignored,
        window: { from: limits.from, until: limits.until },
        upcoming,
        position,
      };
      return { body };
    },
  });
}
