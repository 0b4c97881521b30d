import { describe, expect, it } from 'vitest';
import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { BookingInput, DailyReportQuery, RoomInput, TimeSlotInput } from '@rr/contracts';
import { fromContract } from './contract-schema.ts';
import { toFieldErrors, z } from './validation.ts';

function schemaOf(name: string, schema: z.ZodType) {
  const registry = new OpenAPIRegistry();
  registry.register(name, schema.openapi(name));
  const doc = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
  });
  return doc.components?.schemas?.[name] as { properties: Record<string, object> };
}

describe('classic twins of the contracts', () => {
  it('validate as the contract does, with fresh defaults on every parse', () => {
    const twin = fromContract(TimeSlotInput);
    expect(twin).toBeInstanceOf(z.ZodObject);
    const slot = { startTime: '08:00', endTime: '09:00', startDate: '2026-03-02', capacity: 1 };
    const first = twin.parse(slot);
    first.daysOfWeek.push('MONDAY');
    expect(twin.parse(slot).daysOfWeek).toEqual([]);
    expect(twin.safeParse({ ...slot, endTime: '07:00' }).success).toBe(false);
    expect(fromContract(TimeSlotInput)).toBe(twin);
  });

  it('document the rules: lengths, integers and ranges, date patterns, defaults', () => {
    const room = schemaOf('RoomInput', fromContract(RoomInput));
    expect(room.properties.name).toEqual({ type: 'string', minLength: 3, maxLength: 50 });
    expect(room.properties.capacity).toEqual({ type: 'integer', minimum: 0, maximum: 99999 });
    // A room may leave a bound of its booking window empty: its site's applies (roomOpenBounds).
    expect(room.properties.openStartType).toEqual({
      type: ['string', 'null'],
      enum: ['WORKING_DAY', 'DAY', null],
    });
    const daily = schemaOf('Daily', fromContract(DailyReportQuery));
    expect(daily.properties.date).toEqual({ type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
    const booking = schemaOf('BookingInput', fromContract(BookingInput));
    expect(booking.properties.title).toEqual({ type: ['string', 'null'], maxLength: 40 });
    expect(booking.properties.language).toEqual({
      type: 'string',
      enum: ['de', 'en'],
      default: 'de',
    });
  });
});

describe('field errors of the API', () => {
  it('carry the message of the rule a field failed (docs/product.md#validation)', () => {
    const result = fromContract(RoomInput).safeParse({ name: 'ab', capacity: 100000 });
    const errors = toFieldErrors(result.error!);
    expect(errors).toEqual(
      expect.arrayContaining([
        {
          field: 'name',
          rule: 'too_small',
          message: 'This field should be at least 3 characters long',
        },
        { field: 'description', rule: 'invalid_type', message: 'Value is required' },
        {
          field: 'capacity',
          rule: 'between',
          message: 'The value must be between 0 and 99999',
        },
      ]),
    );
  });

  it('keep a schema’s own message where no rule of the spec applies', () => {
    const ids = z.object({
      id: z.uuid('Not a valid id'),
      s: fromContract(BookingInput).shape.salutation,
    });
    expect(toFieldErrors(ids.safeParse({ id: 'x', s: 'dr' }).error!)).toEqual([
      { field: 'id', rule: 'invalid_format', message: 'Not a valid id' },
      { field: 's', rule: 'invalid_value', message: 'Choose Mr, Ms or none' },
    ]);
  });
});
