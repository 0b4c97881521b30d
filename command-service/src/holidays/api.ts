import { randomUUID } from 'node:crypto';
import multer from 'multer';
import type { Request, Response } from 'express';
import {
  formatPosition,
  HOLIDAYS_STREAM,
  HolidayCreated,
  HolidayDeleted,
  HolidayUpdated,
  type NewEvent,
  type Position,
} from '@rr/events';
import {
  defineRoute,
  isoDate,
  optionalText,
  Problem,
  problems,
  requiredText,
  z,
  type RouteDef,
  type SessionUser,
} from '@rr/platform';
import { actorOf, type CommandDeps } from '../deps.ts';
import { holidayIdentity, loadHolidays, type HolidaysState } from './state.ts';
import { CalendarFileError, parseHolidayCalendar } from './ical.ts';

export const MAX_CALENDAR_BYTES = 5 * 1024 * 1024;

const HolidayBody = z
  .object({ name: requiredText(100), description: optionalText(500), date: isoDate })
  .openapi('HolidayInput');
const HolidayUpdateBody = HolidayBody.extend({ version: z.number().int().min(1) }).openapi(
  'HolidayUpdateInput',
);
const IdParams = z.object({ id: z.uuid('Not a valid id') });
const Written = z
  .object({ id: z.uuid(), version: z.number(), position: z.string() })
  .openapi('HolidayWritten');
const Imported = z
  .object({ imported: z.number(), skipped: z.number(), position: z.string() })
  .openapi('HolidayImportResult');

const positionToken = (p: Position | null) => (p ? formatPosition(p) : '0_0');

export function holidayCommandRoutes(deps: CommandDeps): RouteDef[] {
  const { store } = deps;

  /** Locks and folds the holiday stream, decides, appends at its version: one transaction. */
  async function execute<T>(
    user: SessionUser | undefined,
    decide: (state: HolidaysState) => { events: NewEvent[]; result: T },
  ) {
    const { result, position } = await store.transaction(async (s) => {
      const state = await loadHolidays(s, true);
      const decision = decide(state);
      if (decision.events.length > 0) {
        await s.append(
          [
            {
              streamId: HOLIDAYS_STREAM,
              streamType: 'holidays',
              expectedVersion: state.streamVersion === 0 ? 'no_stream' : state.streamVersion,
              events: decision.events,
            },
          ],
          { metadata: { actor: actorOf(user) } },
        );
      }
      return decision.result;
    });
    return { result, position: positionToken(position) };
  }

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

  return [
    defineRoute({
      method: 'post',
      path: '/admin/holidays',
      summary: 'Create a holiday',
      tags: ['holidays'],
      access: ['admin'],
      body: HolidayBody,
      responses: { 201: { description: 'Created', schema: Written } },
      handler: async ({ body, user }) => {
        const holidayId = randomUUID();
        const { position } = await execute(user, () => ({
          events: [HolidayCreated.create({ holidayId, ...body })],
          result: null,
        }));
        return { status: 201, body: { id: holidayId, version: 1, position } };
      },
    }),
    defineRoute({
      method: 'put',
      path: '/admin/holidays/{id}',
      summary: 'Update a holiday (version must be the current one)',
      tags: ['holidays'],
      access: ['admin'],
      params: IdParams,
      body: HolidayUpdateBody,
      responses: {
        200: { description: 'Updated', schema: Written },
        404: { description: 'No such holiday' },
        409: { description: 'Stale version' },
      },
      handler: async ({ params, body, user }) => {
        const { result, position } = await execute(user, (state) => {
          const current = state.holidays.get(params.id);
          if (!current) throw problems.notFound('Holiday');
          if (current.version !== body.version) throw problems.versionConflict();
          const { version: _v, ...details } = body;
          return {
            events: [HolidayUpdated.create({ holidayId: params.id, ...details })],
            result: current.version + 1,
          };
        });
        return { body: { id: params.id, version: result, position } };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/admin/holidays/{id}',
      summary: 'Delete a holiday',
      tags: ['holidays'],
      access: ['admin'],
      params: IdParams,
      responses: {
        200: { description: 'Deleted', schema: z.object({ position: z.string() }) },
        404: { description: 'No such holiday' },
      },
      handler: async ({ params, user }) => {
        const { position } = await execute(user, (state) => {
          if (!state.holidays.has(params.id)) throw problems.notFound('Holiday');
          return { events: [HolidayDeleted.create({ holidayId: params.id })], result: null };
        });
        return { body: { position } };
      },
    }),
    defineRoute({
      method: 'post',
      path: '/admin/holidays/ical',
      summary:
        'Import holidays from an iCalendar file (all-day events; re-importing creates no duplicates)',
      tags: ['holidays'],
      access: ['admin'],
      multipart: z.object({ file: z.string().openapi({ format: 'binary' }) }),
      responses: { 200: { description: 'Imported', schema: Imported } },
      handler: async ({ req, res, user }) => {
        if (!req.is('multipart/form-data'))
          throw problems.badRequest(
            'validation__error',
            'Send multipart/form-data with the field file',
          );
        await parseUpload(req, res);
        const file = req.file;
        if (!file)
          throw problems.validation([
            { field: 'file', rule: 'required', message: 'Value is required' },
          ]);
        const nameOk = /\.(ics|ical|ifb|icalendar)$/i.test(file.originalname);
        const typeOk = /^(text\/calendar|application\/octet-stream|text\/plain)$/i.test(
          file.mimetype,
        );
        if (!nameOk && !typeOk)
          throw new Problem(400, 'calendar__invalid_file', 'Not an iCalendar file');
        let parsed: ReturnType<typeof parseHolidayCalendar>;
        try {
          parsed = parseHolidayCalendar(file.buffer.toString('utf8'));
        } catch (err) {
          if (err instanceof CalendarFileError)
            throw new Problem(400, 'calendar__invalid_file', 'Not an iCalendar file');
          throw err;
        }
        const { result, position } = await execute(user, (state) => {
          const known = new Set(
            [...state.holidays.values()].map((h) => holidayIdentity(h.date, h.name)),
          );
          const events: NewEvent[] = [];
          let skipped = parsed.ignored;
          for (const h of parsed.holidays) {
            const id = holidayIdentity(h.date, h.name);
            if (known.has(id)) {
              skipped += 1;
              continue;
            }
            known.add(id);
            events.push(
              HolidayCreated.create({
                holidayId: randomUUID(),
                name: h.name,
                description: h.description,
                date: h.date,
              }),
            );
          }
          return { events, result: { imported: events.length, skipped } };
        });
        return { body: { ...result, position } };
      },
    }),
  ];
}
