import { describe, expect, it } from 'vitest';
import { resolveApiUrl, routerBasename, serializeParams } from './url';

describe('resolveApiUrl', () => {
  it('resolves a relative path against the API base', () => {
    expect(resolveApiUrl('/api/', 'rooms/1/image?v=3')).toBe('/api/rooms/1/image?v=3');
    expect(resolveApiUrl('/api', 'rooms')).toBe('/api/rooms');
    expect(resolveApiUrl('https://host/api/', 'rooms')).toBe('https://host/api/rooms');
  });

  it('keeps absolute and root-relative addresses', () => {
    expect(resolveApiUrl('/api/', '/other/image.png')).toBe('/other/image.png');
    expect(resolveApiUrl('/api/', 'https://cdn.example.org/a.jpg')).toBe(
      'https://cdn.example.org/a.jpg',
    );
  });
});

describe('routerBasename', () => {
  it.each([
    ['/', '/'],
    ['/admin/', '/admin'],
    ['/admin', '/admin'],
    ['reservierung/admin/', '/reservierung/admin'],
    ['https://www.example.org/lesesaal/', '/lesesaal'],
  ])('maps %s to %s', (input, expected) => {
    expect(routerBasename(input)).toBe(expected);
  });
});

describe('serializeParams', () => {
  it('repeats array values without indices and skips null and undefined', () => {
    expect(
      serializeParams({
        limit: 999,
        offset: 0,
        term: null,
        name: undefined,
        status: ['BOOKED', null, 'CANCELLED'],
        sort: 'order:ASC',
        flag: false,
      }),
    ).toBe('limit=999&offset=0&status=BOOKED&status=CANCELLED&sort=order%3AASC&flag=false');
  });

  it('encodes reserved characters', () => {
    expect(serializeParams({ term: 'a&b c' })).toBe('term=a%26b+c');
  });
});
