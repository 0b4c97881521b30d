import { crc32, deflateSync } from 'node:zlib';

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A real, decodable RGB PNG of the given size (a colour gradient), optionally padded with noise to grow it. */
export function makePng(width = 8, height = 8, noiseBytes = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = (x * 255) / Math.max(1, width - 1);
      row[2 + x * 3] = (y * 255) / Math.max(1, height - 1);
      row[3 + x * 3] = 128;
    }
    rows.push(row);
  }
  const parts = [
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
  ];
  if (noiseBytes > 0) {
    const noise = Buffer.alloc(noiseBytes);
    for (let i = 0; i < noiseBytes; i++) noise[i] = (i * 2654435761) & 0xff;
    parts.push(chunk('tEXt', Buffer.concat([Buffer.from('Comment\0'), noise])));
  }
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return Buffer.concat(parts);
}

/**
 * The start of a PNG: signature and header (IHDR) claiming any size, then the end, without pixel
 * data. What a server reads without decoding; `cut` drops that many bytes from the end.
 */
export function pngHeader(width: number, height: number, cut = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type RGB
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IEND', Buffer.alloc(0)),
  ]);
  return png.subarray(0, png.length - cut);
}

/**
 * The headers of a JPEG: start of image, JFIF (APP0) and a frame header (SOF0, baseline, unless
 * another SOF marker is given) of the given size, then end of image, without scan data.
 * `cut` drops that many bytes from the end.
 */
export function jpegHeader(width: number, height: number, sof = 0xc0, cut = 0): Buffer {
  const app0 = Buffer.from([
    0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
    0x00, 0x00,
  ]);
  const frame = Buffer.alloc(19);
  frame[0] = 0xff;
  frame[1] = sof;
  frame.writeUInt16BE(17, 2); // length
  frame[4] = 8; // precision
  frame.writeUInt16BE(height, 5);
  frame.writeUInt16BE(width, 7);
  frame[9] = 3; // components: id, sampling, quantisation table
  frame.set([1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1], 10);
  const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8]), app0, frame, Buffer.from([0xff, 0xd9])]);
  return jpeg.subarray(0, jpeg.length - cut);
}
