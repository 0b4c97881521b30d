import { crc32, deflateSync } from 'node:zlib';

/**
 * The icon every Apple Wallet pass must carry (the lock screen's notification shows it): a plain
 * square in the library's colour, drawn here as a PNG so no image file has to ship.
 */
const COLOUR = [0x1f, 0x4e, 0x79] as const;

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `size`×`size` PNG (8-bit RGB) of one colour. */
export function squarePng(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.writeUInt8(8, 8); // bit depth
  header.writeUInt8(2, 9); // colour type: RGB
  // Each row: filter byte 0, then the pixels.
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array(size).fill(COLOUR).flat())]);
  const pixels = Buffer.concat(Array<Buffer>(size).fill(row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The pass's icons: 29 points, at once and twice the resolution. */
export const passIcons = (): Record<string, Buffer> => ({
  'icon.png': squarePng(29),
  'icon@2x.png': squarePng(58),
});
