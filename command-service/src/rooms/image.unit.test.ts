import { describe, expect, it } from 'vitest';
import { jpegHeader, makePng, pngHeader } from '../../../tests/support/images.ts';
import { inspectRoomImage, MAX_IMAGE_PIXELS } from './image.ts';

async function refusal(bytes: Buffer): Promise<{ status: number; error: string }> {
  try {
    await inspectRoomImage(bytes);
  } catch (err) {
    const { status, error } = err as { status: number; error: string };
    return { status, error };
  }
  throw new Error('accepted');
}

describe('room image inspection', () => {
  it('reads the size of a PNG and of baseline and progressive JPEGs without decoding them', async () => {
    expect(await inspectRoomImage(makePng(64, 48))).toEqual({
      contentType: 'image/png',
      width: 64,
      height: 48,
    });
    expect(await inspectRoomImage(jpegHeader(4000, 3000))).toEqual({
      contentType: 'image/jpeg',
      width: 4000,
      height: 3000,
    });
    expect((await inspectRoomImage(jpegHeader(640, 480, 0xc2))).width).toBe(640);
  });

  it('accepts up to 40 megapixels and refuses more', async () => {
    expect(MAX_IMAGE_PIXELS).toBe(40_000_000);
    expect((await inspectRoomImage(pngHeader(8000, 5000))).height).toBe(5000);
    for (const big of [
      pngHeader(20000, 20000),
      pngHeader(8000, 5001),
      pngHeader(2 ** 31 - 1, 2 ** 31 - 1),
      pngHeader(40_000_001, 1),
      jpegHeader(65535, 65535),
    ])
      expect(await refusal(big)).toEqual({ status: 400, error: 'image__too_many_pixels' });
  });

  it('refuses a cut-off or nonsensical header with a 400, never an exception', async () => {
    for (const cut of [2, 5, 10]) {
      const r = await refusal(pngHeader(20000, 20000, 12 + 8 + cut));
      expect(r.status).toBe(400);
      expect(['image__invalid', 'image__invalid_type']).toContain(r.error);
    }
    expect(await refusal(pngHeader(0, 100))).toEqual({ status: 400, error: 'image__invalid' });
    expect(await refusal(jpegHeader(640, 0))).toEqual({ status: 400, error: 'image__invalid' });
    for (const cut of [14, 18, 22])
      expect(await refusal(jpegHeader(640, 480, 0xc0, cut))).toEqual({
        status: 400,
        error: 'image__invalid',
      });
  });

  it('never reads past the upload: a cut-off header in a pooled buffer is refused', async () => {
    // Node's pooled buffers share one ArrayBuffer: bytes after a view belong to someone else.
    const pool = Buffer.allocUnsafe(200).fill(0x7f);
    const cut = pngHeader(100, 100, 22);
    cut.copy(pool, 0);
    const view = pool.subarray(0, cut.length);
    expect(await refusal(view)).toEqual({ status: 400, error: 'image__invalid' });
  });

  it('refuses what is not a JPEG or PNG by its content', async () => {
    expect(await refusal(Buffer.from('GIF89a\x01\x00\x01\x00'))).toEqual({
      status: 400,
      error: 'image__invalid_type',
    });
    expect(await refusal(Buffer.from('not an image at all'))).toEqual({
      status: 400,
      error: 'image__invalid_type',
    });
  });
});
