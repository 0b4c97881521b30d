import { describe, expect, it } from 'vitest';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { checkInCodes, qrPng } from './check-in-code.ts';

const secret = 'x'.repeat(40);
const ticketId = '3f2b8c1e-9d4a-4e6b-8f0c-1a2b3c4d5e6f';

describe('check-in references', () => {
  const codes = checkInCodes(secret);

  it('name their ticket, and only references issued with the secret do', () => {
    const code = codes.codeOf(ticketId);
    expect(code.startsWith(`${ticketId}.`)).toBe(true);
    expect(codes.ticketOf(code)).toBe(ticketId);
    expect(
      codes.ticketOf(` ${code.toUpperCase().replace(/\..*/, '')}.${code.split('.')[1]} `),
    ).toBe(ticketId);
    expect(checkInCodes('y'.repeat(40)).ticketOf(code)).toBeNull();
    const other = '3f2b8c1e-9d4a-4e6b-8f0c-1a2b3c4d5e70';
    expect(codes.ticketOf(`${other}.${code.split('.')[1]}`)).toBeNull();
    for (const bad of ['', ticketId, `${ticketId}.`, `${code}.x`, 'a.b', `${code}x`])
      expect(codes.ticketOf(bad)).toBeNull();
  });

  it('go into a QR code a decoder reads back', async () => {
    const code = codes.codeOf(ticketId);
    const png = PNG.sync.read(await qrPng(code));
    const read = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    expect(read?.data).toBe(code);
  });
});
